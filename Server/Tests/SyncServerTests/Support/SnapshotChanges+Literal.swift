import NIOCore
import PostgresNIO

@testable import StoreSyncServer

/// One change as the snapshot query answers it: `column` and `value` nil for a delete.
struct SnapshotChange {
    var table = "items"
    var key: String
    var column: String?
    var value: String?
    var hlc: Int64
    var device: String
    var sequence: Int64
}

extension SnapshotChanges {
    /// The answer PostgreSQL would send for `changes`, each column an array in binary format.
    init(_ changes: [SnapshotChange]) throws {
        try self.init(
            tables: .texts(changes.map(\.table)), keys: .texts(changes.map(\.key)), columns: .texts(changes.map { $0.column ?? "" }),
            values: .texts(changes.map { $0.value ?? "" }), devices: .texts(changes.map(\.device)), clocks: changes.map(\.hlc),
            sequences: changes.map(\.sequence))
    }
}

extension PostgresBinaryArray {
    /// `texts` as PostgreSQL's `array_send` writes a `text[]`.
    static func texts(_ texts: [String]) throws -> PostgresBinaryArray {
        try PostgresBinaryArray(binary: binary(texts.map { Array($0.utf8) }, of: .text), of: .text)
    }

    /// `elements` as PostgreSQL's `array_send` writes a one-dimensional array of `type`.
    static func binary(_ elements: [[UInt8]], of type: PostgresDataType) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeMultipleIntegers(Int32(elements.isEmpty ? 0 : 1), Int32(0), type.rawValue, endianness: .big)
        if !elements.isEmpty { buffer.writeMultipleIntegers(Int32(elements.count), Int32(1), endianness: .big) }
        for element in elements {
            buffer.writeInteger(Int32(element.count), endianness: .big)
            buffer.writeBytes(element)
        }
        return buffer
    }
}
