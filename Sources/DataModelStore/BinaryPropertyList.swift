import Foundation

/// A reader of binary property lists (`bplist00`) straight into ``PropertyListValue``: a store's metadata is read on
/// every open, and Foundation's readers cost several times more (the `Codable` decoder throws and catches per
/// scalar; `PropertyListSerialization` builds Foundation objects that are then bridged and cast).
///
/// It reads what metadata holds — dictionaries with string keys, arrays, strings (ASCII and UTF-16), integers,
/// reals, Booleans, dates, data — and answers `nil` for anything else (sets, UIDs, malformed or truncated input),
/// so the caller falls back to Foundation. ``encode(_:)`` writes the same format (keys sorted, so the same value
/// always gives the same bytes).
public enum BinaryPropertyList {
    /// `value` as a binary property list (`bplist00`), as Foundation writes one.
    public static func encode(_ value: PropertyListValue) -> Data {
        var writer = Writer(objectCount: count(value))
        _ = writer.add(value)
        return writer.finish()
    }

    /// The number of objects `value` takes (each key is one).
    private static func count(_ value: PropertyListValue) -> Int {
        switch value {
        case .array(let elements): return 1 + elements.reduce(0) { $0 + count($1) }
        case .dictionary(let entries): return 1 + entries.reduce(0) { $0 + 1 + count($1.value) }
        default: return 1
        }
    }

    private struct Writer {
        let referenceSize: Int
        /// The objects, one after the other, and where each starts.
        var output: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int]
        /// Each object's number, in the order written (an object is written after what it contains).
        var written = 0

        init(objectCount: Int) {
            referenceSize = objectCount < 0x100 ? 1 : objectCount < 0x1_0000 ? 2 : 4
            offsets = [Int](repeating: 0, count: objectCount)
            output.reserveCapacity(64 * objectCount + 64)
        }

        mutating func append(bigEndian value: UInt64, size: Int) {
            for index in 0..<size { output.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - index)))) }
        }

        mutating func append(integer value: Int64) {
            if value >= 0 && value <= 0xFF {
                output.append(0x10)
                append(bigEndian: UInt64(value), size: 1)
            } else if value >= 0 && value <= 0xFFFF {
                output.append(0x11)
                append(bigEndian: UInt64(value), size: 2)
            } else if value >= 0 && value <= 0xFFFF_FFFF {
                output.append(0x12)
                append(bigEndian: UInt64(value), size: 4)
            } else {
                output.append(0x13)
                append(bigEndian: UInt64(bitPattern: value), size: 8)
            }
        }

        /// A marker with its count: in the low nibble, or `0xF` and an integer object.
        mutating func append(marker kind: UInt8, count: Int) {
            if count < 15 {
                output.append(kind << 4 | UInt8(count))
            } else {
                output.append(kind << 4 | 0x0F)
                append(integer: Int64(count))
            }
        }

        /// Numbers `value` and what it contains (a container before its contents), then writes the contents
        /// and the value; returns the value's number.
        mutating func add(_ value: PropertyListValue) -> Int {
            let index = written
            written += 1
            switch value {
            case .array(let elements):
                let references = elements.map { add($0) }
                offsets[index] = output.count
                append(marker: 0xA, count: elements.count)
                for reference in references { append(bigEndian: UInt64(reference), size: referenceSize) }
            case .dictionary(let entries):
                let keys = entries.keys.sorted()
                var references: [Int] = []
                references.reserveCapacity(2 * keys.count)
                for key in keys { references.append(add(.string(key))) }
                for key in keys { references.append(add(entries[key] ?? .string(""))) }
                offsets[index] = output.count
                append(marker: 0xD, count: keys.count)
                for reference in references { append(bigEndian: UInt64(reference), size: referenceSize) }
            default:
                offsets[index] = output.count
                appendScalar(value)
            }
            return index
        }

        mutating func appendScalar(_ value: PropertyListValue) {
            switch value {
            case .bool(let flag): output.append(flag ? 0x09 : 0x08)
            case .integer(let number): append(integer: number)
            case .real(let number):
                output.append(0x23)
                append(bigEndian: number.bitPattern, size: 8)
            case .date(let date):
                output.append(0x33)
                append(bigEndian: date.timeIntervalSinceReferenceDate.bitPattern, size: 8)
            case .data(let data):
                append(marker: 0x4, count: data.count)
                output.append(contentsOf: data)
            case .string(let text):
                if text.utf8.allSatisfy({ $0 < 0x80 }) {
                    append(marker: 0x5, count: text.utf8.count)
                    output.append(contentsOf: text.utf8)
                } else {
                    append(marker: 0x6, count: text.utf16.count)
                    for unit in text.utf16 {
                        output.append(UInt8(unit >> 8))
                        output.append(UInt8(unit & 0xFF))
                    }
                }
            case .array, .dictionary: break
            }
        }

        /// The offset table and the trailer after the objects.
        mutating func finish() -> Data {
            let tableOffset = output.count
            let offsetSize = tableOffset < 0x100 ? 1 : tableOffset < 0x1_0000 ? 2 : tableOffset < 0x1_0000_0000 ? 4 : 8
            for offset in offsets { append(bigEndian: UInt64(offset), size: offsetSize) }
            output.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)])
            append(bigEndian: UInt64(offsets.count), size: 8)
            append(bigEndian: 0, size: 8)
            append(bigEndian: UInt64(tableOffset), size: 8)
            return Data(output)
        }
    }

    /// The value of a binary property list, or `nil` when it is not one this reader handles.
    public static func decode(_ data: Data) -> PropertyListValue? {
        data.withUnsafeBytes { raw -> PropertyListValue? in
            guard raw.count >= 40, raw.starts(with: "bplist00".utf8) else { return nil }
            var reader = Reader(bytes: raw)
            return reader.top()
        }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offsetSize = 0
        var referenceSize = 0
        var objectCount = 0
        var offsetTable = 0

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        /// A big-endian unsigned integer of `size` bytes (at most 8) at `offset`.
        func unsigned(at offset: Int, size: Int) -> UInt64? {
            guard size >= 1, size <= 8, offset >= 0, offset + size <= bytes.count else { return nil }
            var value: UInt64 = 0
            for index in 0..<size { value = value << 8 | UInt64(bytes[offset + index]) }
            return value
        }

        mutating func top() -> PropertyListValue? {
            let trailer = bytes.count - 32
            offsetSize = Int(bytes[trailer + 6])
            referenceSize = Int(bytes[trailer + 7])
            guard let count = unsigned(at: trailer + 8, size: 8), let root = unsigned(at: trailer + 16, size: 8),
                let table = unsigned(at: trailer + 24, size: 8), count < UInt64(bytes.count), root < count,
                table < UInt64(trailer), (1...8).contains(offsetSize), (1...8).contains(referenceSize)
            else { return nil }
            objectCount = Int(count)
            offsetTable = Int(table)
            guard offsetTable + objectCount * offsetSize <= trailer else { return nil }
            return object(Int(root), depth: 0)
        }

        /// The object numbered `reference`.
        func object(_ reference: Int, depth: Int) -> PropertyListValue? {
            guard depth < 64, reference >= 0, reference < objectCount,
                let start = unsigned(at: offsetTable + reference * offsetSize, size: offsetSize).map(Int.init),
                start >= 8, start < offsetTable
            else { return nil }
            let marker = bytes[start]
            let info = Int(marker & 0x0F)
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default: return nil
                }
            case 0x1:
                guard info <= 3, let value = unsigned(at: start + 1, size: 1 << info) else { return nil }
                // 1, 2 and 4 bytes are unsigned; 8 bytes are signed.
                return .integer(info == 3 ? Int64(bitPattern: value) : Int64(value))
            case 0x2:
                guard info == 2 || info == 3, let bits = unsigned(at: start + 1, size: 1 << info) else { return nil }
                return .real(info == 2 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits))
            case 0x3:
                guard marker == 0x33, let bits = unsigned(at: start + 1, size: 8) else { return nil }
                return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)))
            case 0x4, 0x5, 0x6, 0xA, 0xD:
                guard let (count, first) = length(info, at: start) else { return nil }
                return container(marker >> 4, count: count, at: first, depth: depth)
            default:
                return nil
            }
        }

        /// The element count of a variable-length object and where its contents start: the marker's low nibble, or
        /// (`0xF`) an integer object that follows.
        func length(_ info: Int, at start: Int) -> (Int, Int)? {
            guard info == 0x0F else { return (info, start + 1) }
            guard start + 1 < bytes.count else { return nil }
            let marker = bytes[start + 1]
            let size = 1 << Int(marker & 0x0F)
            guard marker >> 4 == 0x1, size <= 8, let count = unsigned(at: start + 2, size: size),
                count < UInt64(bytes.count)
            else { return nil }
            return (Int(count), start + 2 + size)
        }

        func container(_ kind: UInt8, count: Int, at first: Int, depth: Int) -> PropertyListValue? {
            switch kind {
            case 0x4:
                guard first + count <= offsetTable else { return nil }
                return .data(Data(bytes[first..<(first + count)]))
            case 0x5:
                guard first + count <= offsetTable else { return nil }
                let text = String(
                    decoding: UnsafeRawBufferPointer(rebasing: bytes[first..<(first + count)]), as: UTF8.self)
                return .string(text)
            case 0x6:
                guard first + 2 * count <= offsetTable else { return nil }
                var units: [UInt16] = []
                units.reserveCapacity(count)
                for index in 0..<count {
                    units.append(UInt16(bytes[first + 2 * index]) << 8 | UInt16(bytes[first + 2 * index + 1]))
                }
                return .string(String(decoding: units, as: UTF16.self))
            case 0xA:
                var elements: [PropertyListValue] = []
                elements.reserveCapacity(count)
                for index in 0..<count {
                    guard let reference = unsigned(at: first + index * referenceSize, size: referenceSize),
                        let element = object(Int(reference), depth: depth + 1)
                    else { return nil }
                    elements.append(element)
                }
                return .array(elements)
            case 0xD:
                var entries: [String: PropertyListValue] = [:]
                entries.reserveCapacity(count)
                for index in 0..<count {
                    guard let keyReference = unsigned(at: first + index * referenceSize, size: referenceSize),
                        let valueReference = unsigned(
                            at: first + (count + index) * referenceSize, size: referenceSize),
                        case .string(let key)? = object(Int(keyReference), depth: depth + 1),
                        let value = object(Int(valueReference), depth: depth + 1)
                    else { return nil }
                    entries[key] = value
                }
                return .dictionary(entries)
            default:
                return nil
            }
        }
    }
}
