import Foundation

extension Bool: DatabaseValueConvertible {
    /// Stored as INTEGER 0 or 1.
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    /// Any non-zero number is `true`.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
        switch value {
        case .integer(let number): number != 0
        case .real(let number): number != 0
        default: nil
        }
    }
}

extension Int64: DatabaseValueConvertible {
    /// Stored as INTEGER.
    public var databaseValue: DatabaseValue { .integer(self) }
    /// Reads an INTEGER, or a REAL with no fractional part that fits.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? {
        switch value {
        case .integer(let number): return number
        case .real(let number):
            guard number.rounded(.towardZero) == number, number >= -0x1p63, number < 0x1p63 else { return nil }
            return Int64(number)
        default: return nil
        }
    }
}

/// Integer types stored as INTEGER; values out of range for the Swift type do not convert.
public protocol DatabaseInteger: FixedWidthInteger, DatabaseValueConvertible {}

extension DatabaseInteger {
    /// Stored as INTEGER; a value above `Int64.max` (only `UInt`, `UInt64`) is stored as REAL rounded.
    public var databaseValue: DatabaseValue {
        Int64(exactly: self).map(DatabaseValue.integer) ?? .real(Double(self))
    }
    /// Reads an INTEGER that fits in the type.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Self? {
        Int64.fromDatabaseValue(value).flatMap(Self.init(exactly:))
    }
}

extension Int: DatabaseInteger {}
extension Int8: DatabaseInteger {}
extension Int16: DatabaseInteger {}
extension Int32: DatabaseInteger {}
extension UInt: DatabaseInteger {}
extension UInt8: DatabaseInteger {}
extension UInt16: DatabaseInteger {}
extension UInt32: DatabaseInteger {}
extension UInt64: DatabaseInteger {}

extension Double: DatabaseValueConvertible {
    /// Stored as REAL. SQLite stores NaN as NULL, so NaN reads back as NULL: the
    /// store rejects it when binding (see `Statement.bind`). In a column with REAL
    /// affinity SQLite writes whole numbers as integers, so `-0.0` reads back as `0.0`.
    public var databaseValue: DatabaseValue { .real(self) }
    /// Reads a REAL or an INTEGER.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
        switch value {
        case .real(let number): number
        case .integer(let number): Double(number)
        default: nil
        }
    }
}

extension Float: DatabaseValueConvertible {
    /// Stored as REAL.
    public var databaseValue: DatabaseValue { .real(Double(self)) }
    /// Reads a REAL or an INTEGER.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Float? {
        Double.fromDatabaseValue(value).map(Float.init)
    }
}

extension String: DatabaseValueConvertible {
    /// Stored as TEXT.
    public var databaseValue: DatabaseValue { .text(self) }
    /// Reads TEXT only.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }
}

extension Data: DatabaseValueConvertible {
    /// Stored as BLOB (an empty `Data` is an empty blob, not NULL).
    public var databaseValue: DatabaseValue { .blob(self) }
    /// Reads a BLOB, or TEXT as its UTF-8 bytes.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Data? {
        switch value {
        case .blob(let data): data
        case .text(let text): Data(text.utf8)
        default: nil
        }
    }
}

extension Date: DatabaseValueConvertible {
    /// Stored as REAL seconds since 1970-01-01 00:00:00 UTC (`unixepoch()`). A round trip is
    /// off by at most one unit in the last place of that Double: within 1 µs for dates
    /// between 1698 and 2242 (up to 2^33 s from 1970), within 16 µs for years 1 to 9999.
    public var databaseValue: DatabaseValue { .real(timeIntervalSince1970) }
    /// Reads REAL or INTEGER seconds since 1970, or ISO-8601 TEXT (as SQLite's `datetime()` writes it).
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Date? {
        switch value {
        case .real, .integer: Double.fromDatabaseValue(value).map(Date.init(timeIntervalSince1970:))
        case .text(let text): DateText.parse(text)
        default: nil
        }
    }
}

extension UUID: DatabaseValueConvertible {
    /// Stored as TEXT in the canonical uppercase form.
    public var databaseValue: DatabaseValue { .text(uuidString) }
    /// Reads canonical TEXT (any case) or a 16-byte BLOB.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> UUID? {
        switch value {
        case .text(let text): return UUID(uuidString: text)
        case .blob(let data) where data.count == 16:
            let b = [UInt8](data)
            return UUID(
                uuid: (
                    b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                    b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
                ))
        default: return nil
        }
    }
}

/// Parses the text forms of dates that SQLite's date functions write.
enum DateText {
    private static let formats = [
        "yyyy-MM-dd HH:mm:ss.SSS", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss.SSS",
        "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd",
    ]

    static func parse(_ text: String) -> Date? {
        var trimmed = text
        if trimmed.hasSuffix("Z") { trimmed.removeLast() }
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }
}
