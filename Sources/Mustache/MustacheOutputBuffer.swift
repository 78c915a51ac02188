/// The bytes a render appends, in memory the renderer owns for the length of one render.
///
/// Appending is a capacity check and a copy, without the copy-on-write and generic-sequence checks of
/// `Array.append(contentsOf:)`, which dominated rendering. Not copyable: exactly one owner frees it.
struct MustacheOutputBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes have been appended.
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        self.base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The last byte appended, if any.
    var last: UInt8? {
        count > 0 ? base[count - 1] : nil
    }

    mutating func append(_ byte: UInt8) {
        reserve(1)
        (base + count).initialize(to: byte)
        count += 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends a string's UTF-8 bytes.
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// A copy of the bytes appended so far.
    var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }

    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        var newCapacity = capacity * 2
        while newCapacity < count + extra { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
