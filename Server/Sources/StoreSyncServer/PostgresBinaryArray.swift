import Foundation
import NIOCore
import PostgresNIO

/// A one-dimensional PostgreSQL array without NULLs, read from the binary format without a
/// Swift value per element: the snapshot query's text arrays stay bytes until a page is written.
///
/// PostgresNIO's `[String]` decoding made a `String` per element through generic code; for a
/// page's 75,000 texts that was most of the server's CPU for the page.
struct PostgresBinaryArray {
    /// The array's bytes as PostgreSQL sent them, from its header on.
    private let buffer: ByteBuffer
    /// Where each element's 4-byte length is in `buffer`'s readable bytes, then where the last
    /// element ends: element `i` is the bytes from `lengths[i] + 4` up to `lengths[i + 1]`.
    private let lengths: [Int]

    /// How many elements the array holds.
    var count: Int { lengths.count - 1 }

    /// Reads `cell`, which must be a one-dimensional array of `elementType` in binary format
    /// (or an empty one), without NULLs. Anything else is a ``SnapshotPageError``.
    init(_ cell: PostgresCell, of elementType: PostgresDataType) throws {
        guard cell.format == .binary, let buffer = cell.bytes else {
            throw SnapshotPageError("the snapshot query's column \(cell.columnName) is not an array in binary format")
        }
        try self.init(binary: buffer, of: elementType)
    }

    /// Reads an array from `buffer`, as PostgreSQL's `array_send` writes it: a header (the
    /// dimensions, a NULLs flag, the element type's OID; for one dimension its length and lower
    /// bound), then each element as a 4-byte length and its bytes, all big-endian.
    init(binary buffer: ByteBuffer, of elementType: PostgresDataType) throws {
        var reader = buffer
        guard let (dimensions, hasNulls, type) = reader.readMultipleIntegers(endianness: .big, as: (Int32, Int32, UInt32).self),
            PostgresDataType(type) == elementType, hasNulls == 0, dimensions == 0 || dimensions == 1
        else { throw SnapshotPageError("the snapshot query's array is not a one-dimensional \(elementType) array without NULLs") }
        var lengths: [Int] = []
        if dimensions == 1 {
            guard let (count, _) = reader.readMultipleIntegers(endianness: .big, as: (Int32, Int32).self), count >= 0 else {
                throw Self.malformed
            }
            // Each element takes 4 bytes at least: a count the bytes cannot hold reserves no more than they can.
            lengths.reserveCapacity(min(Int(count), reader.readableBytes / 4) + 1)
            for _ in 0..<count {
                lengths.append(reader.readerIndex - buffer.readerIndex)
                guard let size = reader.readInteger(endianness: .big, as: Int32.self), size >= 0,
                    reader.readSlice(length: Int(size)) != nil
                else { throw Self.malformed }
            }
        }
        guard reader.readableBytes == 0 else { throw Self.malformed }
        lengths.append(reader.readerIndex - buffer.readerIndex)
        self.buffer = buffer
        self.lengths = lengths
    }

    private static let malformed = SnapshotPageError("the snapshot query's array is cut short or has bytes after its elements")

    /// Calls `body` with element `index`'s bytes.
    func withElement<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeReadableBytes { bytes in
            try body(UnsafeRawBufferPointer(rebasing: bytes[(lengths[index] + 4)..<lengths[index + 1]]))
        }
    }

    /// Element `index`'s bytes, copied.
    func bytes(_ index: Int) -> [UInt8] { withElement(index) { Array($0) } }

    /// Whether element `index` has no bytes.
    func isEmpty(_ index: Int) -> Bool { lengths[index] + 4 == lengths[index + 1] }

    /// Whether elements `a` and `b` have the same bytes.
    func sameBytes(_ a: Int, _ b: Int) -> Bool { compare(a, b) == 0 }

    /// Whether element `index` has the bytes `other`.
    func element(_ index: Int, is other: [UInt8]) -> Bool {
        withElement(index) { element in other.withUnsafeBytes { Self.compare(element, $0) == 0 } }
    }

    /// Elements `a` and `b` in the order of their bytes: negative when `a` comes first, 0 when
    /// they are the same bytes, positive when `b` comes first.
    func compare(_ a: Int, _ b: Int) -> Int {
        withElement(a) { first in withElement(b) { second in Self.compare(first, second) } }
    }

    /// Two byte strings in the order of their bytes, a prefix first.
    static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let first = a.baseAddress, let second = b.baseAddress {
            let order = memcmp(first, second, common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }

    /// The elements read as 8-byte integers (an `int8[]`); an element of another size is a ``SnapshotPageError``.
    func integers() throws -> [Int64] {
        try (0..<count).map { index in
            try withElement(index) { bytes in
                guard bytes.count == 8 else { throw SnapshotPageError("an int8 array element of \(bytes.count) bytes") }
                return Int64(bigEndian: bytes.loadUnaligned(as: Int64.self))
            }
        }
    }
}
