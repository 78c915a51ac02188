import Foundation

/// A parameter or a column value, in the types a store needs.
///
/// Parameters are sent with their PostgreSQL type (so `$1` needs no cast) — `bytes` in binary, everything else
/// as text; results come back as text and are decoded by the column's type (``PostgresResult``).
public enum PostgresValue: Hashable, Sendable {
    /// SQL `NULL`.
    case null
    /// `boolean`.
    case bool(Bool)
    /// `smallint`, `integer`, `bigint` (sent as `bigint`).
    case int(Int64)
    /// `real`, `double precision` (sent as `double precision`).
    case double(Double)
    /// `numeric`, exactly, as its decimal text (`"12.50"`).
    case numeric(String)
    /// `text`, `varchar`, and any type without a case of its own (as PostgreSQL prints it).
    case text(String)
    /// `bytea`.
    case bytes([UInt8])
    /// `uuid`.
    case uuid(UUID)
    /// `timestamptz` (and `timestamp`, read as UTC), with microsecond precision.
    case timestamp(Date)
    /// `jsonb` / `json`, as its text.
    case json(String)

    /// The value's type OID when sent as a parameter (`0` lets the server infer it, for `NULL`).
    var typeOID: UInt32 {
        switch self {
        case .null: 0
        case .bool: PostgresType.bool
        case .int: PostgresType.int8
        case .double: PostgresType.float8
        case .numeric: PostgresType.numeric
        case .text: PostgresType.text
        case .bytes: PostgresType.bytea
        case .uuid: PostgresType.uuid
        case .timestamp: PostgresType.timestamptz
        case .json: PostgresType.jsonb
        }
    }

    /// The bytes sent for the value as a parameter, and whether they are binary; `nil` for `NULL`.
    var parameterBytes: (bytes: [UInt8], binary: Bool)? {
        switch self {
        case .null: nil
        case .bool(let value): (Array((value ? "t" : "f").utf8), false)
        case .int(let value): (Array(String(value).utf8), false)
        case .double(let value): (Array(PostgresText.double(value).utf8), false)
        case .numeric(let text), .text(let text): (Array(text.utf8), false)
        case .bytes(let bytes): (bytes, true)
        case .uuid(let uuid): (Array(uuid.uuidString.utf8), false)
        case .timestamp(let date): (Array(PostgresText.timestamp(date).utf8), false)
        // jsonb's binary format is a version byte (1) and the text.
        case .json(let text): ([1] + Array(text.utf8), true)
        }
    }
}

extension PostgresValue {
    /// Appends the value as a parameter of type `type` (`0`: unknown) to `storage`; returns whether it is in binary
    /// format, or `nil` for `NULL` (nothing appended). Binary where it is exact and cheap — integers at the
    /// parameter's width, floats, Booleans, timestamps, UUIDs, `bytea`, `jsonb` — and text otherwise.
    func encode(into storage: inout [UInt8], as type: UInt32) -> Bool? {
        switch (self, type) {
        case (.null, _): return nil
        case (.int(let value), PostgresType.int8):
            Self.appendBigEndian(UInt64(bitPattern: value), bytes: 8, to: &storage)
            return true
        case (.int(let value), PostgresType.int4) where Int32(exactly: value) != nil:
            Self.appendBigEndian(UInt64(UInt32(bitPattern: Int32(truncatingIfNeeded: value))), bytes: 4, to: &storage)
            return true
        case (.int(let value), PostgresType.int2) where Int16(exactly: value) != nil:
            Self.appendBigEndian(UInt64(UInt16(bitPattern: Int16(truncatingIfNeeded: value))), bytes: 2, to: &storage)
            return true
        case (.int(let value), _):
            Self.appendDecimal(value, to: &storage)
            return false
        case (.double(let value), PostgresType.float8):
            Self.appendBigEndian(value.bitPattern, bytes: 8, to: &storage)
            return true
        case (.bool(let value), PostgresType.bool):
            storage.append(value ? 1 : 0)
            return true
        case (.timestamp(let date), PostgresType.timestamptz), (.timestamp(let date), PostgresType.timestamp):
            // Microseconds since 2000-01-01 00:00 UTC; beyond the representable range, as text (±infinity).
            let micros = ((date.timeIntervalSinceReferenceDate + 31_622_400) * 1_000_000).rounded()
            guard micros.isFinite, abs(micros) < 9.0e18 else { break }
            Self.appendBigEndian(UInt64(bitPattern: Int64(micros)), bytes: 8, to: &storage)
            return true
        case (.uuid(let uuid), PostgresType.uuid):
            withUnsafeBytes(of: uuid.uuid) { storage.append(contentsOf: $0) }
            return true
        case (.text(let text), _):
            storage.append(contentsOf: text.utf8)
            return false
        default: break
        }
        guard let (bytes, binary) = parameterBytes else { return nil }
        storage.append(contentsOf: bytes)
        return binary
    }

    private static func appendBigEndian(_ value: UInt64, bytes: Int, to storage: inout [UInt8]) {
        var shift = (bytes - 1) * 8
        while shift >= 0 {
            storage.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    private static func appendDecimal(_ value: Int64, to storage: inout [UInt8]) {
        if value < 0 { storage.append(45) }
        var magnitude = value.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(48 + magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { storage.append(buffer[index]) }
        }
    }
}

/// The type OIDs of the built-in types a store uses (`pg_type.oid`; fixed by PostgreSQL for built-in types).
public enum PostgresType {
    public static let bool: UInt32 = 16
    public static let bytea: UInt32 = 17
    public static let int8: UInt32 = 20
    public static let int2: UInt32 = 21
    public static let int4: UInt32 = 23
    public static let text: UInt32 = 25
    public static let oid: UInt32 = 26
    public static let json: UInt32 = 114
    public static let float4: UInt32 = 700
    public static let float8: UInt32 = 701
    public static let varchar: UInt32 = 1043
    public static let timestamp: UInt32 = 1114
    public static let timestamptz: UInt32 = 1184
    public static let numeric: UInt32 = 1700
    public static let uuid: UInt32 = 2950
    public static let jsonb: UInt32 = 3802
}

/// Reads a timestamp's digits and separators, byte by byte.
private struct TimestampScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var isAtEnd: Bool { index >= bytes.count }

    /// The next byte's digit value, consumed; `nil` (nothing consumed) when it is not a digit.
    mutating func digit() -> UInt8? {
        guard index < bytes.count else { return nil }
        let digit = bytes[index] &- 48
        guard digit < 10 else { return nil }
        index += 1
        return digit
    }

    /// A number of `minimum` to `maximum` digits, consumed; `nil` when there are fewer.
    mutating func number(_ minimum: Int, _ maximum: Int) -> Int64? {
        var value: Int64 = 0
        var digits = 0
        while digits < maximum, let digit = digit() {
            value = value * 10 + Int64(digit)
            digits += 1
        }
        return digits >= minimum ? value : nil
    }

    /// Consumes `byte` when it is next.
    mutating func expect(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }
}

/// PostgreSQL's text formats for the values whose spelling matters: floats, timestamps and `bytea`.
public enum PostgresText {
    /// A double as PostgreSQL reads it back exactly (shortest round-trip digits; `Infinity`, `-Infinity`, `NaN`).
    public static func double(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        return "\(value)"
    }

    /// Parses a float as PostgreSQL prints it.
    public static func double(from text: String) -> Double? {
        switch text {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: return Double(text)
        }
    }

    /// A timestamp in ISO 8601 with microseconds and an explicit UTC offset: `2026-12-01 20:00:09.123456+00`.
    public static func timestamp(_ date: Date) -> String {
        let totalMicroseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        guard totalMicroseconds.isFinite, abs(totalMicroseconds) < 9.0e18 else {
            return date.timeIntervalSince1970 < 0 ? "-infinity" : "infinity"
        }
        let micros = Int64(totalMicroseconds)
        var seconds = micros / 1_000_000
        var fraction = micros % 1_000_000
        if fraction < 0 {
            fraction += 1_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = civil(fromDays: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let yearText = year > 0 ? pad(year, 4) : pad(1 - year, 4)
        var text = "\(yearText)-\(pad(month, 2))-\(pad(day, 2)) "
        text += "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        text += ".\(pad(fraction, 6))+00"
        if year <= 0 { text += " BC" }
        return text
    }

    /// Parses a `timestamptz` or `timestamp` as PostgreSQL prints it with `DateStyle=ISO` (a timestamp without
    /// a zone is read as UTC): `2026-12-01 20:00:09.5+00`, `…+05:30`, `… BC`, `infinity`.
    public static func timestamp(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { timestamp(fromUTF8: $0) }
    }

    /// ``timestamp(from:)`` on the text's UTF-8 bytes, read in place (a column value in libpq's result).
    public static func timestamp(fromUTF8 all: UnsafeBufferPointer<UInt8>) -> Date? {
        if all.elementsEqual("infinity".utf8) { return .distantFuture }
        if all.elementsEqual("-infinity".utf8) { return .distantPast }
        var end = all.count
        var beforeChrist = false
        if end > 3, all[end - 3] == 32, all[end - 2] == 66, all[end - 1] == 67 {  // " BC"
            beforeChrist = true
            end -= 3
        }
        // A scanner value rather than nested functions: a closure capturing the index would box it and check
        // exclusive access on every byte.
        var scanner = TimestampScanner(bytes: UnsafeBufferPointer(rebasing: all[0..<end]))
        guard var year = scanner.number(4, 9), scanner.expect(45), let month = scanner.number(2, 2), scanner.expect(45),
            let day = scanner.number(2, 2),
            scanner.expect(32) || scanner.expect(84), let hour = scanner.number(2, 2), scanner.expect(58),
            let minute = scanner.number(2, 2), scanner.expect(58),
            let second = scanner.number(2, 2)
        else { return nil }
        var micros: Int64 = 0
        if scanner.expect(46) {
            var scale: Int64 = 100_000
            var digits = 0
            while let digit = scanner.digit() {
                if digits < 6 { micros += Int64(digit) * scale }
                scale /= 10
                digits += 1
            }
            guard digits > 0 else { return nil }
        }
        var offsetSeconds: Int64 = 0
        if !scanner.isAtEnd {
            let sign: Int64
            if scanner.expect(43) {
                sign = 1
            } else if scanner.expect(45) {
                sign = -1
            } else if scanner.expect(90) {
                sign = 0
            } else {
                return nil
            }
            if sign != 0 {
                guard let hours = scanner.number(2, 2) else { return nil }
                var minutes: Int64 = 0
                var seconds: Int64 = 0
                if scanner.expect(58) {
                    guard let value = scanner.number(2, 2) else { return nil }
                    minutes = value
                    if scanner.expect(58) {
                        guard let value = scanner.number(2, 2) else { return nil }
                        seconds = value
                    }
                }
                offsetSeconds = sign * (hours * 3600 + minutes * 60 + seconds)
            }
        }
        guard scanner.isAtEnd, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        if beforeChrist { year = 1 - year }
        let days = days(fromCivil: year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + Double(micros) / 1_000_000)
    }

    /// `bytea`'s text output (`\x` and two hex digits a byte) decoded; `nil` for anything else.
    public static func bytes(fromHex text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == 92, utf8[1] == 120, utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((utf8.count - 2) / 2)
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: c - 48
            case 97...102: c - 87
            case 65...70: c - 55
            default: nil
            }
        }
        var index = 2
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (year 0 is 1 BC).
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
