import Foundation
import SQLiteStoreCore

/// How the controller compares the values of one sort key in memory, exactly as SQLite
/// does: NULL first, then numbers (INTEGER and REAL by value), then text by the collation
/// in force, then blobs by bytes. Never Swift's `String` comparison, which treats
/// canonically equivalent texts (NFC and NFD) as equal.
struct KeyComparator: Sendable {
    private enum TextOrder: Sendable {
        case binary, nocase, rtrim
        case swift(@Sendable (String, String) -> ComparisonResult)
    }

    private let text: TextOrder

    private init(_ text: TextOrder) { self.text = text }

    /// SQLite's default: UTF-8 bytes, shorter prefix first.
    static let binary = KeyComparator(.binary)

    /// The comparator of the collation named `name`: one of `registered` (the store's Swift
    /// collations, which SQLite calls too) or a built-in one; `nil` when the controller
    /// cannot reproduce it in memory.
    init?(collationNamed name: String, registered: [Collation]) {
        if let comparison = registered.first(where: { $0 == Collation(named: name) })?.comparison {
            self.init(.swift(comparison))
            return
        }
        switch name.sqliteIdentifierFolded {
        case "binary": self.init(.binary)
        case "nocase": self.init(.nocase)
        case "rtrim": self.init(.rtrim)
        default: return nil
        }
    }

    /// Three-way comparison: negative, zero or positive.
    func compare(_ a: DatabaseValue, _ b: DatabaseValue) -> Int {
        guard case .text(let left) = a, case .text(let right) = b else { return DatabaseValue.compare(a, b) }
        switch text {
        case .binary: return Self.withBytes(left, right, Self.binary)
        case .nocase: return Self.withBytes(left, right, Self.nocase)
        case .rtrim: return Self.withBytes(left, right) { Self.binary(Self.trimmingSpaces($0), Self.trimmingSpaces($1)) }
        case .swift(let comparison): return comparison(left, right).rawValue
        }
    }

    private static func withBytes(
        _ a: String, _ b: String,
        _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Int
    ) -> Int {
        var a = a
        var b = b
        return a.withUTF8 { left in b.withUTF8 { right in body(left, right) } }
    }

    /// `memcmp` over the common length, then the shorter first (SQLite's `binCollFunc`).
    private static func binary(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let left = a.baseAddress, let right = b.baseAddress {
            let order = memcmp(left, right, common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }

    /// SQLite's `nocaseCollatingFunc`: `sqlite3StrNICmp` over the common length (ASCII A–Z
    /// folded to a–z, stopping at a NUL), then the shorter first.
    private static func nocase(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        for index in 0..<min(a.count, b.count) {
            let left = folded(a[index])
            let right = folded(b[index])
            if left != right { return Int(left) - Int(right) }
            if a[index] == 0 { break }
        }
        return a.count - b.count
    }

    private static func folded(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

    /// The bytes without trailing spaces (U+0020 only), as SQLite's `rtrimCollFunc` sees them.
    private static func trimmingSpaces(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var count = bytes.count
        while count > 0, bytes[count - 1] == 0x20 { count -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[..<count])
    }
}
