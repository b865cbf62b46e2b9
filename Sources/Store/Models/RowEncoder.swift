import Foundation

/// Takes the columns of an encoded row, in encoding order.
protocol EncodedColumns: AnyObject {
    /// Takes `value` for `column`, the row's next column; throws `ColumnsChanged` when it
    /// expected another column.
    func append(_ value: DatabaseValue, column: String) throws
}

/// Thrown by `EncodedColumns` that expected other columns than a value encodes to.
struct ColumnsChanged: Error {}

/// The columns and values an `Encodable` value encodes to, in encoding order.
final class EncodedRow: EncodedColumns {
    private(set) var columns: [String] = []
    private(set) var values: [DatabaseValue] = []

    func append(_ value: DatabaseValue, column: String) {
        columns.append(column)
        values.append(value)
    }
}

/// Encodes `Encodable` values into rows of columns: properties of `DatabaseValueConvertible`
/// types become their values, other properties JSON text, and `nil` optionals NULL, so that
/// an update clears them.
///
/// One encoder serves every row a connection writes, so that the run-time type checks of
/// generic properties are paid once per position in the row (see `ValueConversionCache`).
final class RowEncoder: Encoder {
    private var destination: (any EncodedColumns)?
    /// The position in the row of the next value.
    private var position = 0
    private var conversions = ValueConversionCache()

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Encodes `value` into `destination`; any failure but `ColumnsChanged` is a `StoreError`.
    func encode<T: Encodable>(_ value: T, into destination: any EncodedColumns) throws {
        // A model's `encode(to:)` may itself write a model through the same connection.
        let outer = (self.destination, position)
        defer { (self.destination, position) = outer }
        self.destination = destination
        position = 0
        do {
            try value.encode(to: self)
        } catch let error as StoreError {
            throw error
        } catch let error as ColumnsChanged {
            throw error
        } catch {
            throw StoreError.mismatch("cannot encode \(T.self): \(error)")
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RowEncodingContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        FailingContainers.unkeyed
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FailingContainers.singleValue
    }

    /// Appends the next column of the row.
    func append(_ value: DatabaseValue, column: String) throws {
        guard let destination else {
            throw StoreError.misuse("a model encoded a value after its encode(to:) returned")
        }
        position += 1
        try destination.append(value, column: column)
    }

    /// Appends a value of any `Encodable` type.
    func appendAny<T: Encodable>(_ value: T, column: String) throws {
        switch conversions.conversion(of: T.self, at: position) {
        case .standard(let type): try append(databaseValue(of: value, as: type), column: column)
        case .convertible(let type): try append(databaseValue(of: value, as: type), column: column)
        case .json:
            let json = try JSONEncoder().encode(value)
            try append(.text(String(decoding: json, as: UTF8.self)), column: column)
        }
    }

    /// Appends NULL for `nil`, else a value of any `Encodable` type.
    func appendAnyIfPresent<T: Encodable>(_ value: T?, column: String) throws {
        guard let value else { return try append(.null, column: column) }
        try appendAny(value, column: column)
    }

    /// The stored value of `value`, whose type is known only at run time to be `type`.
    private func databaseValue<T>(of value: T, as type: any DatabaseValueConvertible.Type) throws -> DatabaseValue {
        func convert<C: DatabaseValueConvertible>(_: C.Type) throws -> DatabaseValue {
            // A `switch` casts in place; `guard let … as? C` would build an `Optional<C>`,
            // whose metadata generic code looks up at run time on every call.
            switch value {
            case let convertible as C: return convertible.databaseValue
            default: throw StoreError.mismatch("cannot encode \(T.self) as \(C.self)")
            }
        }
        return try convert(type)
    }
}

private struct RowEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: RowEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { try encoder.append(.null, column: key.stringValue) }

    // The standard types have overloads of their own, so that they are stored without a
    // run-time type check; everything else goes through the generic `encode`.
    mutating func encode(_ value: Bool, forKey key: Key) throws { try encoder.append(value.databaseValue, column: key.stringValue) }
    mutating func encode(_ value: String, forKey key: Key) throws { try encoder.append(value.databaseValue, column: key.stringValue) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try encoder.append(value.databaseValue, column: key.stringValue) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encoder.append(value.databaseValue, column: key.stringValue) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try encoder.append(value.databaseValue, column: key.stringValue) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encoder.append(value.databaseValue, column: key.stringValue) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encoder.append(value.databaseValue, column: key.stringValue) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encoder.append(value.databaseValue, column: key.stringValue) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encoder.append(value.databaseValue, column: key.stringValue) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encoder.append(value.databaseValue, column: key.stringValue) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encoder.append(value.databaseValue, column: key.stringValue) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encoder.append(value.databaseValue, column: key.stringValue) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encoder.append(value.databaseValue, column: key.stringValue) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encoder.append(value.databaseValue, column: key.stringValue) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder.appendAny(value, column: key.stringValue) }

    // Synthesized `encode(to:)` writes optionals with `encodeIfPresent`, whose default skips
    // `nil`: every overload stores NULL instead, or updates would keep the old value.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        try encoder.append(value.databaseValue, column: key.stringValue)
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        try encoder.append(value.databaseValue, column: key.stringValue)
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        try encoder.append(value.databaseValue, column: key.stringValue)
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        try encoder.append(value.databaseValue, column: key.stringValue)
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        try encoder.append(value.databaseValue, column: key.stringValue)
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        try encoder.append(value.databaseValue, column: key.stringValue)
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        try encoder.append(value.databaseValue, column: key.stringValue)
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        try encoder.append(value.databaseValue, column: key.stringValue)
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        try encoder.append(value.databaseValue, column: key.stringValue)
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        try encoder.append(value.databaseValue, column: key.stringValue)
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        try encoder.append(value.databaseValue, column: key.stringValue)
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        try encoder.append(value.databaseValue, column: key.stringValue)
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        try encoder.append(value.databaseValue, column: key.stringValue)
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        try encoder.append(value.databaseValue, column: key.stringValue)
    }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    mutating func encodeIfPresent(_ value: Int128?, forKey key: Key) throws {
        try encoder.appendAnyIfPresent(value, column: key.stringValue)
    }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    mutating func encodeIfPresent(_ value: UInt128?, forKey key: Key) throws {
        try encoder.appendAnyIfPresent(value, column: key.stringValue)
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try encoder.appendAnyIfPresent(value, column: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<
        NestedKey
    > {
        KeyedEncodingContainer(FailingContainers.Keyed<NestedKey>())
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { FailingContainers.unkeyed }
    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
}

/// Containers a row cannot hold: every call throws, so a model with a hand-written
/// `encode(to:)` that uses them gets a `StoreError` instead of silently losing data.
private enum FailingContainers {
    static let failure = StoreError.mismatch(
        "a model encodes into a keyed container of columns; nest values in a Codable property type to store them as JSON")

    static var unkeyed: any UnkeyedEncodingContainer { Unkeyed() }
    static var singleValue: any SingleValueEncodingContainer { SingleValue() }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) throws { throw failure }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw failure }
        mutating func nestedContainer<N: CodingKey>(keyedBy keyType: N.Type, forKey key: Key) -> KeyedEncodingContainer<N> {
            KeyedEncodingContainer(Keyed<N>())
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { Unkeyed() }
        mutating func superEncoder() -> any Encoder { FailingEncoder() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { FailingEncoder() }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }
        mutating func encodeNil() throws { throw failure }
        mutating func encode<T: Encodable>(_ value: T) throws { throw failure }
        mutating func nestedContainer<N: CodingKey>(keyedBy keyType: N.Type) -> KeyedEncodingContainer<N> {
            KeyedEncodingContainer(Keyed<N>())
        }
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
