import Foundation

/// The columns and values an `Encodable` value encodes to, in encoding order.
final class EncodedRow {
    private(set) var columns: [String] = []
    private(set) var values: [DatabaseValue] = []

    func removeAll() {
        columns.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
    }

    func append(_ column: String, _ value: DatabaseValue) {
        columns.append(column)
        values.append(value)
    }

    /// Encodes `value` into this row, replacing its contents. Non-`DatabaseValueConvertible`
    /// properties become JSON text; `nil` optionals become NULL, so that an update clears them.
    func encode<T: Encodable>(_ value: T) throws {
        removeAll()
        do {
            try value.encode(to: RowEncoder(row: self))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.mismatch("cannot encode \(T.self): \(error)")
        }
    }
}

private struct RowEncoder: Encoder {
    let row: EncodedRow
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RowEncodingContainer<Key>(row: row))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        FailingContainers.unkeyed
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FailingContainers.singleValue
    }
}

private struct RowEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let row: EncodedRow
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { row.append(key.stringValue, .null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if let convertible = value as? any DatabaseValueConvertible {
            row.append(key.stringValue, convertible.databaseValue)
            return
        }
        let json = try JSONEncoder().encode(value)
        row.append(key.stringValue, .text(String(decoding: json, as: UTF8.self)))
    }

    // Synthesized `encode(to:)` writes optionals with `encodeIfPresent`, whose default skips
    // `nil`: every overload stores NULL instead, or updates would keep the old value.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    mutating func encodeIfPresent(_ value: Int128?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    mutating func encodeIfPresent(_ value: UInt128?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }

    private mutating func encodeOptional<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(FailingContainers.Keyed<NestedKey>())
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { FailingContainers.unkeyed }
    mutating func superEncoder() -> any Encoder { RowEncoder(row: row) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { RowEncoder(row: row) }
}

/// Containers a row cannot hold: every call throws, so a model with a hand-written
/// `encode(to:)` that uses them gets a `StoreError` instead of silently losing data.
private enum FailingContainers {
    static let failure = StoreError.mismatch("a model encodes into a keyed container of columns; nest values in a Codable property type to store them as JSON")

    static var unkeyed: any UnkeyedEncodingContainer { Unkeyed() }
    static var singleValue: any SingleValueEncodingContainer { SingleValue() }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) throws { throw failure }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw failure }
        mutating func nestedContainer<N: CodingKey>(keyedBy keyType: N.Type, forKey key: Key) -> KeyedEncodingContainer<N> { KeyedEncodingContainer(Keyed<N>()) }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { Unkeyed() }
        mutating func superEncoder() -> any Encoder { FailingEncoder() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { FailingEncoder() }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }
        mutating func encodeNil() throws { throw failure }
        mutating func encode<T: Encodable>(_ value: T) throws { throw failure }
        mutating func nestedContainer<N: CodingKey>(keyedBy keyType: N.Type) -> KeyedEncodingContainer<N> { KeyedEncodingContainer(Keyed<N>()) }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed() }
        mutating func superEncoder() -> any Encoder { FailingEncoder() }
    }

    struct SingleValue: SingleValueEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil() throws { throw failure }
        mutating func encode<T: Encodable>(_ value: T) throws { throw failure }
    }

    struct FailingEncoder: Encoder {
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> { KeyedEncodingContainer(Keyed<Key>()) }
        func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed() }
        func singleValueContainer() -> any SingleValueEncodingContainer { SingleValue() }
    }
}
