import Foundation
import SQLiteStoreCore

/// The values of a row whose cells all carry one stamp, kept as one blob on its
/// `store_sync_rows` entry instead of a `store_sync_cells` entry per column (a row kept whole:
/// see ``SyncStorage``). Each value comes back exactly as it went in: integers, the bits of
/// reals, the bytes of texts and blobs.
///
/// Layout: a format byte (1), then per cell its column name and its value, each a type byte
/// (0 NULL, 1 integer, 2 real, 3 text, 4 blob) followed by 8 little-endian bytes (integer, real)
/// or a length and the bytes (text, blob); names are written as texts, lengths as 4
/// little-endian bytes.
struct SyncRowImage: Equatable {
    /// The row's cells: each column's name and value.
    var cells: [(column: String, value: DatabaseValue)]

    init(cells: [(column: String, value: DatabaseValue)]) {
        self.cells = cells
    }

    static func == (lhs: SyncRowImage, rhs: SyncRowImage) -> Bool {
        lhs.cells.count == rhs.cells.count
            && zip(lhs.cells, rhs.cells).allSatisfy { $0.column.hasSameUTF8(as: $1.column) && $0.value.isIdentical(to: $1.value) }
    }

    private static let format: UInt8 = 1

    private enum Tag: UInt8 {
        case null, integer, real, text, blob
    }

    /// The blob stored for the image.
    var encoded: Data { Self.encode(columns: cells.map(\.column), values: cells.map(\.value)) }

    /// The blob stored for the image of `values` under the names `columns`, one for one.
    static func encode(columns: [String], values: [DatabaseValue]) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 + zip(columns, values).reduce(0) { $0 + 5 + $1.0.utf8.count + size(of: $1.1) })
        bytes.append(format)
        for (column, value) in zip(columns, values) {
            append(.text(column), to: &bytes)
            append(value, to: &bytes)
        }
        return Data(bytes)
    }

    /// Reads an image written by ``encoded``.
    ///
    /// - Throws: `StoreError` (`corrupt`) when `data` is not such an image.
    init(decoding data: Data) throws {
        var reader = Reader(bytes: [UInt8](data))
        guard try reader.byte() == Self.format else { throw Self.corrupt }
        var cells: [(column: String, value: DatabaseValue)] = []
        while !reader.isAtEnd {
            guard case .text(let column) = try reader.value() else { throw Self.corrupt }
            cells.append((column, try reader.value()))
        }
        self.cells = cells
    }

    /// The error for an image, or an entry holding one, that this store did not write.
    static var corrupt: StoreError {
        StoreError(code: .corrupt, message: "sync: a row image in store_sync_rows is not one this store wrote")
    }

    private static func append(_ value: DatabaseValue, to bytes: inout [UInt8]) {
        switch value {
        case .null:
            bytes.append(Tag.null.rawValue)
        case .integer(let integer):
            bytes.append(Tag.integer.rawValue)
            appendLittleEndian(UInt64(bitPattern: integer), to: &bytes)
        case .real(let real):
            bytes.append(Tag.real.rawValue)
            appendLittleEndian(real.bitPattern, to: &bytes)
        case .text(let text):
            bytes.append(Tag.text.rawValue)
            appendCounted(text.utf8, to: &bytes)
        case .blob(let blob):
            bytes.append(Tag.blob.rawValue)
            appendCounted(blob, to: &bytes)
        }
    }

    /// The bytes ``append(_:to:)`` writes for `value`.
    private static func size(of value: DatabaseValue) -> Int {
        switch value {
        case .null: 1
        case .integer, .real: 9
        case .text(let text): 5 + text.utf8.count
        case .blob(let blob): 5 + blob.count
        }
    }

    private static func appendCounted(_ payload: some Collection<UInt8>, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(payload.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: payload)
    }

    private static func appendLittleEndian(_ bits: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: bits.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Reads values from an image's bytes, refusing what runs past their end.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        var isAtEnd: Bool { position == bytes.count }

        mutating func byte() throws -> UInt8 {
            guard position < bytes.count else { throw SyncRowImage.corrupt }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func value() throws -> DatabaseValue {
            guard let tag = Tag(rawValue: try byte()) else { throw SyncRowImage.corrupt }
            switch tag {
            case .null: return .null
            case .integer: return .integer(Int64(bitPattern: try littleEndian(8)))
            case .real: return .real(Double(bitPattern: try littleEndian(8)))
            case .text: return .text(String(decoding: try take(Int(try littleEndian(4))), as: UTF8.self))
            case .blob: return .blob(Data(try take(Int(try littleEndian(4)))))
            }
        }

        private mutating func littleEndian(_ count: Int) throws -> UInt64 {
            try take(count).reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }

        private mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
            guard count <= bytes.count - position else { throw SyncRowImage.corrupt }
            defer { position += count }
            return bytes[position..<position + count]
        }
    }
}
