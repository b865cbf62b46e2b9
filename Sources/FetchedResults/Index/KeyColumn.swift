import Foundation
import SQLiteStoreCore

/// The values of one sort key for the rows of a `KeyPage`, column-wise and unboxed: a kind
/// byte and an 8-byte word per row (an INTEGER, a REAL's bits, or a text's first 8 bytes),
/// a second word per row only once the page holds a text longer than 8 bytes, and texts
/// longer than 16 bytes and blobs kept aside by rowid offset. A text of up to 16 UTF-8
/// bytes costs 17 bytes; a number 9.
struct KeyColumn: Sendable {
    private static let null: UInt8 = 0, integer: UInt8 = 1, real: UInt8 = 2, aside: UInt8 = 3
    /// Inline texts: `inlineText + byte count`.
    private static let inlineText: UInt8 = 16
    private static let inlineCapacity = 16

    private var kinds: [UInt8] = []
    private var heads: [UInt64] = []
    /// Bytes 8..<16 of inline texts; `nil` until the page holds a text longer than 8 bytes.
    private var tails: [UInt64]?
    /// Long texts and blobs, by rowid offset within the page.
    private var asides: [UInt16: DatabaseValue] = [:]

    /// The value of row `index`, whose rowid offset is `offset`.
    func value(at index: Int, offset: UInt16) -> DatabaseValue {
        let kind = kinds[index]
        switch kind {
        case Self.null: return .null
        case Self.integer: return .integer(Int64(bitPattern: heads[index]))
        case Self.real: return .real(Double(bitPattern: heads[index]))
        case Self.aside: return asides[offset] ?? .null
        default:
            var words = (heads[index], tails?[index] ?? 0)
            return withUnsafeBytes(of: &words) { bytes in
                .text(String(decoding: bytes.prefix(Int(kind - Self.inlineText)), as: UTF8.self))
            }
        }
    }

    /// The kind, head and tail words that store `value`, or `nil` for a value kept aside.
    private static func encode(_ value: DatabaseValue) -> (kind: UInt8, head: UInt64, tail: UInt64)? {
        switch value {
        case .null: return (null, 0, 0)
        case .integer(let number): return (integer, UInt64(bitPattern: number), 0)
        case .real(let number): return (real, number.bitPattern, 0)
        case .blob: return nil
        case .text(var text):
            return text.withUTF8 { bytes in
                guard bytes.count <= inlineCapacity else { return nil }
                var words: (UInt64, UInt64) = (0, 0)
                withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
                return (inlineText + UInt8(bytes.count), words.0, words.1)
            }
        }
    }

    /// Inserts `value` as row `index`, whose rowid offset is `offset`.
    mutating func insert(_ value: DatabaseValue, at index: Int, offset: UInt16) {
        let encoded = Self.encode(value)
        if let encoded, encoded.kind > Self.inlineText + 8, tails == nil {
            tails = [UInt64](repeating: 0, count: kinds.count)
        }
        kinds.insert(encoded?.kind ?? Self.aside, at: index)
        heads.insert(encoded?.head ?? 0, at: index)
        tails?.insert(encoded?.tail ?? 0, at: index)
        if encoded == nil { asides[offset] = value }
    }

    /// Appends `value` for a row whose rowid offset is `offset`.
    mutating func append(_ value: DatabaseValue, offset: UInt16) {
        insert(value, at: kinds.count, offset: offset)
    }

    /// Removes row `index`, whose rowid offset is `offset`.
    mutating func remove(at index: Int, offset: UInt16) {
        if kinds[index] == Self.aside { asides[offset] = nil }
        kinds.remove(at: index)
        heads.remove(at: index)
        tails?.remove(at: index)
    }

    /// Reorders the rows: row `i` becomes the old row `order[i]`.
    mutating func permute(_ order: [Int]) {
        kinds = order.map { kinds[$0] }
        heads = order.map { heads[$0] }
        if let tails { self.tails = order.map { tails[$0] } }
    }
}
