import Foundation
import SQLiteStoreUTF8

/// A value in one of SQLite's five storage classes.
public enum DatabaseValue: Sendable, Hashable, CustomStringConvertible {
    /// SQL `NULL`.
    case null
    /// A signed 64-bit integer.
    case integer(Int64)
    /// A 64-bit IEEE floating point number.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes.
    case blob(Data)

    /// Whether the value is SQL `NULL`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The text, when the value is TEXT.
    package var stringValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// Whether SQLite holds the two as the same value: the same storage class and value, texts
    /// compared by their UTF-8 bytes as SQLite's `BINARY` collation and `<` do. `String`'s `==`
    /// equates canonically equivalent texts ("é" and "e\u{301}"), which SQLite keeps apart: two
    /// rows whose keys were such texts were taken for one wherever values were set or dictionary
    /// keys (the rows a sync batch touched, the parents a relationship reads).
    public static func == (lhs: DatabaseValue, rhs: DatabaseValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a == b
        case (.text(let a), .text(let b)): a.hasSameUTF8(as: b)
        case (.blob(let a), .blob(let b)): a == b
        default: false
        }
    }

    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'\(value.replacingOccurrences(of: "'", with: "''"))'"
        case .blob(let value): "X'\(value.map { String(format: "%02X", $0) }.joined())'"
        }
    }
}

extension DatabaseValue: Comparable {
    /// Orders values as SQLite's `ORDER BY` does with the `BINARY` collation:
    /// NULL first, then numbers (integers and reals compared by value), then text
    /// (compared byte by byte as UTF-8), then blobs (compared byte by byte).
    public static func < (lhs: DatabaseValue, rhs: DatabaseValue) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// Three-way comparison in SQLite's order: negative, zero or positive.
    public static func compare(_ lhs: DatabaseValue, _ rhs: DatabaseValue) -> Int {
        switch (lhs, rhs) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.integer(let a), .integer(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.integer(let a), .real(let b)): return compareNumbers(integer: a, real: b)
        case (.real(let a), .integer(let b)): return -compareNumbers(integer: b, real: a)
        case (.real(let a), .real(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.integer, _), (.real, _): return -1
        case (_, .integer), (_, .real): return 1
        case (.text(let a), .text(let b)): return compareBytes(a.utf8, b.utf8)
        case (.text, .blob): return -1
        case (.blob, .text): return 1
        case (.blob(let a), .blob(let b)): return compareBytes(a, b)
        }
    }

    /// SQLite's `sqlite3IntFloatCompare`: exact, also where the integer does not convert to
    /// a double exactly (`Int64.max` is below 9223372036854775808.0).
    private static func compareNumbers(integer: Int64, real: Double) -> Int {
        if real < -9.223372036854775808e18 { return 1 }
        if real >= 9.223372036854775808e18 { return -1 }
        let truncated = Int64(real)
        if integer != truncated { return integer < truncated ? -1 : 1 }
        let asReal = Double(integer)
        return asReal < real ? -1 : (asReal > real ? 1 : 0)
    }

    private static func compareBytes<C: Collection<UInt8>>(_ a: C, _ b: C) -> Int {
        var left = a.makeIterator()
        var right = b.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?) where x != y: return x < y ? -1 : 1
            default: continue
            }
        }
    }
}
