/// A growable byte buffer in memory its owner frees: what a render appends to, and a cheap way for
/// template contexts to build text.
///
/// Appending is a capacity check and a copy, without the copy-on-write and generic-sequence checks of
/// `Array.append(contentsOf:)`, which dominated rendering. Not copyable: exactly one owner frees it.
public struct MustacheOutputBuffer: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var storedCount = 0

    /// How many bytes have been appended.
    @inlinable public var count: Int { storedCount }

    /// An empty buffer with room for `capacity` bytes.
    @inlinable
    public init(capacity: Int) {
        self.capacity = max(capacity, 16)
        self.base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The last byte appended, if any.
    @inlinable
    public var last: UInt8? {
        count > 0 ? base[count - 1] : nil
    }

    /// Appends one byte.
    @inlinable
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        (base + count).initialize(to: byte)
        storedCount += 1
    }

    /// Appends bytes.
    @inlinable
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).initialize(from: source, count: bytes.count)
        storedCount += bytes.count
    }

    /// Appends fixed text, read in place without any string machinery.
    @inlinable
    public mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 bytes.
    @inlinable
    public mutating func append(_ text: String) {
        // In place, without copying the string (and so without retaining it), whenever its bytes are contiguous.
        if text.utf8.withContiguousStorageIfAvailable({ append($0) }) != nil { return }
        var text = text
        text.withUTF8 { append($0) }
    }

    /// A copy of the bytes appended so far.
    public var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// The bytes appended so far as a string (they must be UTF-8: every append is).
    public var string: String {
        String(unsafeUninitializedCapacity: count) { buffer in
            guard let target = buffer.baseAddress else { return 0 }
            target.initialize(from: base, count: count)
            return count
        }
    }

    /// The bytes appended from offset `start` on, as a string.
    func string(from start: Int) -> String {
        let start = min(max(start, 0), count)
        return String(decoding: UnsafeBufferPointer(start: base + start, count: count - start), as: UTF8.self)
    }

    /// Removes the last `k` bytes appended (all of them when `k` exceeds ``count``).
    mutating func removeLast(_ k: Int) {
        storedCount -= min(max(k, 0), storedCount)
    }

    @inlinable
    mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        grow(toHold: count + extra)
    }

    @usableFromInline
    mutating func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
