#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A name a template looks up, resolved once when the template compiles.
///
/// Every key with the same name gets the same small number, so a ``MustacheKeyTable`` answers a
/// lookup with one array read, without hashing or comparing the name; templates keep one key per tag
/// instead of a string.
///
/// ```swift
/// let key = MustacheKey("className")
/// table[key]  // the value stored under "className"
/// ```
public struct MustacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The name.
    public let name: String
    /// A seedless hash of the name's UTF-8 bytes, the same in every process.
    public let fingerprint: UInt64
    /// The number of the name in this process: equal for equal names, distinct for distinct names.
    @usableFromInline let number: Int

    /// Creates a key for `name`.
    public init(_ name: String) {
        self.name = name
        self.fingerprint = Self.fingerprint(of: name)
        self.number = MustacheKeyNumbers.number(of: name)
    }

    public var description: String { name }

    public static func == (lhs: MustacheKey, rhs: MustacheKey) -> Bool {
        lhs.number == rhs.number
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fingerprint)
    }

    /// FNV-1a over the UTF-8 bytes, mixed so that the low bits spread well.
    static func fingerprint(of name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        return hash
    }
}

/// The numbers of the key names seen in this process, handed out in order from 0.
///
/// Keys are made when templates compile and when key tables are built, never per lookup, so the
/// lock is taken rarely; a name looked up by string that no key has is in no table.
enum MustacheKeyNumbers {
    private static let registry = KeyNumberRegistry()

    /// The number of `name`, given one if it has none yet.
    static func number(of name: String) -> Int {
        registry.withLock { numbers in
            if let number = numbers[name] { return number }
            let number = numbers.count
            numbers[name] = number
            return number
        }
    }

    /// The number of `name` if a key with that name exists.
    static func existingNumber(of name: String) -> Int? {
        registry.withLock { $0[name] }
    }
}

/// The names numbered so far, behind a POSIX mutex.
///
/// Not `Synchronization.Mutex`: on Linux that is built on raw futexes, which the thread sanitizer cannot see,
/// so every use from two threads would be reported as a race.
private final class KeyNumberRegistry: @unchecked Sendable {
    // @unchecked: `numbers` is only touched with `mutex` locked.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var numbers: [String: Int] = [:]

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: (inout [String: Int]) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&numbers)
    }
}

/// A fixed list of names, each looked up by ``MustacheKey`` to its position with one array read.
///
/// Meant for the static key tables of ``MustacheObject`` types; ``KeyedMustacheObject`` does the
/// lookups for objects whose keys are an enum's cases.
public struct MustacheKeyTable: Sendable {
    /// The position of each name, indexed by its key's number; -1 for numbers of other names. A key
    /// numbered past the end was made after the table, so it is none of the table's names.
    @usableFromInline let positions: [Int]
    /// The same positions in memory that never moves, for the renderer to read through a pointer.
    let fixedPositions: MustacheKeyPositions

    /// Creates a table of `names`; a repeated name keeps its first position.
    public init(_ names: [String]) {
        let numbers = names.map { MustacheKeyNumbers.number(of: $0) }
        var positions = [Int](repeating: -1, count: (numbers.max() ?? -1) + 1)
        for (position, number) in numbers.enumerated() where positions[number] < 0 {
            positions[number] = position
        }
        self.positions = positions
        self.fixedPositions = MustacheKeyPositions(positions)
    }

    /// The position of `key`'s name in the table's names, or nil when it is not one of them.
    @inlinable
    public subscript(key: MustacheKey) -> Int? {
        guard key.number < positions.count else { return nil }
        let position = positions[key.number]
        return position < 0 ? nil : position
    }

    /// The position of `name` in the table's names, or nil when it is not one of them.
    public subscript(name: String) -> Int? {
        guard let number = MustacheKeyNumbers.existingNumber(of: name), number < positions.count else { return nil }
        let position = positions[number]
        return position < 0 ? nil : position
    }
}

/// A key table's positions, allocated once and never written after `init`, so a reader holding
/// the object may read them through ``base`` without copying or reference counting.
///
/// Unchecked `Sendable`: the memory is written only in `init` and freed only in `deinit`.
final class MustacheKeyPositions: @unchecked Sendable {
    /// The position of the name numbered `i` at `base[i]`, or -1.
    let base: UnsafeMutablePointer<Int>
    /// How many numbers have an entry; higher numbers are none of the table's names.
    let count: Int

    init(_ positions: [Int]) {
        count = positions.count
        base = .allocate(capacity: max(count, 1))
        positions.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { base.initialize(from: start, count: source.count) }
        }
    }

    deinit {
        base.deallocate()
    }
}

/// The keys of a ``KeyedMustacheObject`` type: their table, and their cases by position. Made once per type
/// (`static let keys = makeKeys()`).
public struct MustacheKeys<Key: RawRepresentable & CaseIterable & Sendable>: Sendable where Key.RawValue == String {
    /// The table of the keys' names (the cases' raw values), in case order.
    public let table: MustacheKeyTable
    /// The cases, by position in ``table``.
    @usableFromInline let cases: [Key]

    /// The keys of `Key`'s cases.
    public init() {
        let cases = Array(Key.allCases)
        self.cases = cases
        self.table = MustacheKeyTable(cases.map(\.rawValue))
    }

    /// The case at `position` in ``table``, or nil.
    @inlinable
    public func key(atPosition position: Int) -> Key? {
        position >= 0 && position < cases.count ? cases[position] : nil
    }
}

/// A ``MustacheObject`` whose keys are the cases of a `String` enum (the raw values are the names templates
/// use), answered through a static ``MustacheKeys``: the object only says what each case's value is.
///
/// ```swift
/// final class ItemObject: KeyedMustacheObject {
///     enum Key: String, CaseIterable, Sendable { case name, type }
///     static let keys = makeKeys()
///     func value(for known: Key) -> MustacheValue? {
///         switch known { case .name: return .string(name); case .type: return .string(type) }
///     }
/// }
/// ```
///
/// The names are the raw values rather than the case names as `"\(key)"` prints them: printing a case goes
/// through reflection, whose first use in a process costs more than rendering a small model.
public protocol KeyedMustacheObject: MustacheObject {
    /// The keys; each raw value is the name templates use.
    associatedtype Key: RawRepresentable & CaseIterable & Sendable where Key.RawValue == String
    /// The keys' table: `makeKeys()`.
    static var keys: MustacheKeys<Key> { get }
    /// The value of one key, or nil for none.
    func value(for known: Key) -> MustacheValue?

    /// Appends the text of one key to `output` as an unescaped interpolation of ``value(for:)`` renders it,
    /// or says why not (see ``MustacheObject/writeMustacheText(atKeyPosition:to:)``). The default writes
    /// nothing and returns ``MustacheTextWrite/notText``.
    func writeText(for known: Key, to output: inout MustacheOutputBuffer) -> MustacheTextWrite
}

extension KeyedMustacheObject {
    /// The keys of ``Key``'s cases, for ``keys``.
    public static func makeKeys() -> MustacheKeys<Key> {
        MustacheKeys()
    }

    // Inlinable: each conforming type gets the lookup specialized for its own `Key`.
    @inlinable
    public func mustacheValue(forKey key: String) -> MustacheValue? {
        guard let index = Self.keys.table[key], let known = Self.keys.key(atPosition: index) else { return nil }
        return value(for: known)
    }

    @inlinable
    public func mustacheValue(for key: MustacheKey) -> MustacheValue? {
        guard let index = Self.keys.table[key], let known = Self.keys.key(atPosition: index) else { return nil }
        return value(for: known)
    }

    /// ``keys``: the renderer skips this object for other keys without calling it.
    public var mustacheKeyTable: MustacheKeyTable? { Self.keys.table }

    @inlinable
    public func mustacheValue(atKeyPosition position: Int) -> MustacheValue? {
        guard let known = Self.keys.key(atPosition: position) else { return nil }
        return value(for: known)
    }

    /// The value of a key whose text ``writeText(for:to:)`` writes: that text, as a string; nil when the key
    /// is absent (or is not text). An object that writes its text keys can answer ``value(for:)`` with this for
    /// them, so each key's text is spelled in one place.
    public func writtenValue(for known: Key) -> MustacheValue? {
        var text = MustacheOutputBuffer(capacity: 64)
        guard case .written = writeText(for: known, to: &text) else { return nil }
        return .string(text.string)
    }

    /// No text of its own: the renderer asks ``value(for:)``.
    public func writeText(for known: Key, to output: inout MustacheOutputBuffer) -> MustacheTextWrite {
        .notText
    }

    @inlinable
    public func writeMustacheText(atKeyPosition position: Int, to output: inout MustacheOutputBuffer)
        -> MustacheTextWrite
    {
        guard let known = Self.keys.key(atPosition: position) else { return .absent }
        return writeText(for: known, to: &output)
    }
}
