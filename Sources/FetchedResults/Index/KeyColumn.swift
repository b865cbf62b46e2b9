import Foundation
import SQLiteStoreCore

/// The values of one sort key for the rows of a `KeyPage`, column-wise and unboxed: a kind
/// byte and an 8-byte word per row (an INTEGER, a REAL's bits, a text's first 8 bytes, or
/// where a longer value's bytes are), a second word per row only once the page holds a
/// text of 9 to 16 bytes, and the bytes of longer texts and of blobs in one buffer per page.
/// A number costs 9 bytes, a text of up to 16 bytes 17, a longer text or blob 9 plus its bytes;
/// one byte less each while every row of the page has the same kind (a column of numbers of
/// one storage class, the usual case): the kind is then held once, not per row.
struct KeyColumn: Sendable {
    private static let null: UInt8 = 0, integer: UInt8 = 1, real: UInt8 = 2, longText: UInt8 = 3, blob: UInt8 = 4
    /// Inline texts: `inlineText + byte count`.
    private static let inlineText: UInt8 = 16
    private static let inlineCapacity = 16

    /// The kind of each row; empty while every row has the kind `sharedKind`.
    private var kinds: [UInt8] = []
    /// The kind of every row while they all have one (any kind while there is no row); `nil`
    /// once they differ, and `kinds` holds each row's.
    private var sharedKind: UInt8? = Self.null
    /// The value, or for long texts and blobs `start << 32 | count` in `bytes`.
    private var heads: [UInt64] = []
    /// Bytes 8..<16 of inline texts; `nil` until the page holds a text longer than 8 bytes.
    private var tails: [UInt64]?
    /// The bytes of long texts and blobs, with `garbage` bytes no row uses any more.
    private var bytes: [UInt8] = []
    private var garbage = 0

    /// Room for `count` rows without growing.
    mutating func reserveCapacity(_ count: Int) {
        heads.reserveCapacity(count)
    }

    /// The kind of row `index`.
    private func kind(at index: Int) -> UInt8 { sharedKind ?? kinds[index] }

    /// Makes room for a row of kind `kind` among the rows: `true` when `kinds` holds each
    /// row's kind (and must take this row's), `false` while the rows share theirs.
    private mutating func admitKind(_ kind: UInt8) -> Bool {
        guard let shared = sharedKind else { return true }
        if heads.isEmpty { sharedKind = kind }
        guard sharedKind != kind else { return false }
        kinds = [UInt8](repeating: shared, count: heads.count)
        sharedKind = nil
        return true
    }

    /// The value of row `index`.
    func value(at index: Int) -> DatabaseValue {
        let kind = kind(at: index)
        switch kind {
        case Self.null: return .null
        case Self.integer: return .integer(Int64(bitPattern: heads[index]))
        case Self.real: return .real(Double(bitPattern: heads[index]))
        case Self.longText: return .text(String(decoding: storedBytes(index), as: UTF8.self))
        case Self.blob: return .blob(Data(storedBytes(index)))
        default:
            var words = (heads[index], tails?[index] ?? 0)
            return withUnsafeBytes(of: &words) { bytes in
                .text(String(decoding: bytes.prefix(Int(kind - Self.inlineText)), as: UTF8.self))
            }
        }
    }

    private func storedBytes(_ index: Int) -> ArraySlice<UInt8> {
        let start = Int(heads[index] >> 32)
        let count = Int(heads[index] & 0xFFFF_FFFF)
        return bytes[start..<(start + count)]
    }

    /// Inserts `value` as row `index`.
    mutating func insert(_ value: DatabaseValue, at index: Int) {
        let (kind, head, tail) = encodeForStoring(value)
        if admitKind(kind) { kinds.insert(kind, at: index) }
        heads.insert(head, at: index)
        tails?.insert(tail, at: index)
    }

    /// Replaces row `index`'s value with `value`, in place.
    mutating func replace(at index: Int, with value: DatabaseValue) {
        releaseBytes(of: index)
        let (kind, head, tail) = encodeForStoring(value)
        if kind != sharedKind {
            if sharedKind != nil { _ = admitKind(kind) }
            kinds[index] = kind
        }
        heads[index] = head
        tails?[index] = tail
        compactIfWasteful()
    }

    /// Appends `value` as the last row (an append, cheaper than an insert at the end, which
    /// replaces an empty range of each array).
    mutating func append(_ value: DatabaseValue) {
        let (kind, head, tail) = encodeForStoring(value)
        if admitKind(kind) { kinds.append(kind) }
        heads.append(head)
        tails?.append(tail)
    }

    /// `encode(value)`, making the tails first when the value is the page's first text of 9
    /// to 16 bytes.
    private mutating func encodeForStoring(_ value: DatabaseValue) -> (kind: UInt8, head: UInt64, tail: UInt64) {
        let encoded = encode(value)
        if encoded.kind > Self.inlineText + 8, tails == nil { tails = [UInt64](repeating: 0, count: heads.count) }
        return encoded
    }

    /// The kind, head and tail words that store `value`, its bytes added to `bytes` if long.
    private mutating func encode(_ value: DatabaseValue) -> (kind: UInt8, head: UInt64, tail: UInt64) {
        switch value {
        case .null: return (Self.null, 0, 0)
        case .integer(let number): return (Self.integer, UInt64(bitPattern: number), 0)
        case .real(let number): return (Self.real, number.bitPattern, 0)
        case .blob(let data): return (Self.blob, store(data), 0)
        case .text(var text):
            return text.withUTF8 { utf8 in
                guard utf8.count <= Self.inlineCapacity else { return (Self.longText, store(utf8), 0) }
                var words: (UInt64, UInt64) = (0, 0)
                withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(utf8)) }
                return (Self.inlineText + UInt8(utf8.count), words.0, words.1)
            }
        }
    }

    private mutating func store(_ value: some Collection<UInt8>) -> UInt64 {
        let start = bytes.count
        bytes.append(contentsOf: value)
        return UInt64(start) << 32 | UInt64(value.count)
    }

    /// Removes row `index`.
    mutating func remove(at index: Int) {
        releaseBytes(of: index)
        if sharedKind == nil { kinds.remove(at: index) }
        heads.remove(at: index)
        tails?.remove(at: index)
        compactIfWasteful()
    }

    /// Counts the bytes of row `index`, if it stores any, as no longer used.
    private mutating func releaseBytes(of index: Int) {
        if kind(at: index) == Self.longText || kind(at: index) == Self.blob { garbage += Int(heads[index] & 0xFFFF_FFFF) }
    }

    private mutating func compactIfWasteful() {
        if garbage > 4096, garbage > bytes.count / 2 { compactBytes() }
    }

    /// Rewrites `bytes` with only the rows' bytes.
    private mutating func compactBytes() {
        let old = bytes
        bytes = []
        garbage = 0
        for index in heads.indices where kind(at: index) == Self.longText || kind(at: index) == Self.blob {
            let start = Int(heads[index] >> 32)
            let count = Int(heads[index] & 0xFFFF_FFFF)
            heads[index] = store(old[start..<(start + count)])
        }
    }

    /// Calls `body` with the address and size of each heap buffer held, for tests of sharing.
    func forEachBuffer(_ body: (UInt, Int) -> Void) {
        visitBuffer(of: kinds, body)
        visitBuffer(of: heads, body)
        if let tails { visitBuffer(of: tails, body) }
        visitBuffer(of: bytes, body)
    }

    /// Reorders the rows in place: row `i` moves to row `slots[i]` (`slots` holds each row
    /// once), through `spare` and, for a column of mixed kinds, `spareKinds` (see `Array.scatter`).
    mutating func scatter(to slots: UnsafeBufferPointer<UInt16>, into spare: inout [UInt64], kinds spareKinds: inout [UInt8]) {
        heads.scatter(to: slots, into: &spare)
        tails?.scatter(to: slots, into: &spare)
        if sharedKind == nil { kinds.scatter(to: slots, into: &spareKinds) }
    }

    /// Reorders the rows: row `i` becomes the old row `order[i]`.
    mutating func permute(_ order: [Int]) {
        if sharedKind == nil { kinds = order.map { kinds[$0] } }
        heads = order.map { heads[$0] }
        if let tails { self.tails = order.map { tails[$0] } }
    }
}
