/// The names of an entity's attributes (or relationships), in index order, looked up by name.
///
/// Every generated property read and write looks up its key (`value(for: "name")`), so the
/// lookup is the first cost of every access. A key written as a literal in generated code is
/// the same string, bit for bit, as the model's name: a short one (up to 15 UTF-8 bytes) holds
/// its characters in its 16 bytes, and a longer literal points at the same constant bytes
/// (equal literals are merged). So the lookup first compares the 16 bytes of each name, which
/// costs a few instructions per name and never calls into `String`'s comparison; a name that
/// matches none of them (built at run time, or a literal that was not merged) is compared by
/// content, by a scan for a few names and by hashing for many.
///
/// Owned by one ``EntityRuntime``, which calls ``deallocate()`` when it goes.
struct PropertyNameTable {
    /// A string's 16 bytes, as two words.
    private struct Representation: Equatable {
        let low: UInt64
        let high: UInt64
    }

    private let names: UnsafeMutableBufferPointer<String>
    private let representations: UnsafeMutableBufferPointer<Representation>
    private let indexByName: [String: Int]

    /// The representations scanned before comparing by content, at most (a name beyond them is still found).
    private static let scanLimit = 64

    init(_ names: [String]) {
        let buffer = UnsafeMutableBufferPointer<String>.allocate(capacity: names.count)
        _ = buffer.initialize(from: names)
        self.names = buffer
        let representations = UnsafeMutableBufferPointer<Representation>.allocate(capacity: names.count)
        _ = representations.initialize(from: names.map(Self.representation))
        self.representations = representations
        var indexByName: [String: Int] = [:]
        // The first of equal names wins, as the scans below find it first.
        for (index, name) in names.enumerated().reversed() { indexByName[name] = index }
        self.indexByName = indexByName
    }

    /// How many names there are.
    var count: Int { names.count }

    /// The 16 bytes of `string`, without retaining it.
    @inline(__always)
    private static func representation(_ string: String) -> Representation {
        // safe: `String` is 16 bytes on every 64-bit platform this builds for; the bits are only compared.
        unsafeBitCast(string, to: Representation.self)
    }

    /// The index of `name`, or `nil`.
    @inline(__always)
    func index(of name: String) -> Int? {
        let key = Self.representation(name)
        let scanned = min(representations.count, Self.scanLimit)
        var index = 0
        while index < scanned {
            if representations[index] == key { return index }
            index &+= 1
        }
        return indexComparingContent(of: name)
    }

    /// The index of `name`, compared by content.
    @inline(never)
    private func indexComparingContent(of name: String) -> Int? {
        if names.count <= 12 {
            for index in names.indices where names[index] == name { return index }
            return nil
        }
        return indexByName[name]
    }

    /// Frees the names; the table is unusable after.
    func deallocate() {
        names.deinitialize()
        names.deallocate()
        representations.deallocate()
    }
}
