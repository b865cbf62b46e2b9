import Foundation

/// Decodes a `Decodable` value from the current row of a statement, column by column.
///
/// Keys are matched to result columns through the statement's name→index table, built
/// once per statement. Values of non-`DatabaseValueConvertible` types are read as JSON text.
struct RowDecoder: Decoder {
    let statement: Statement
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowDecodingContainer<Key>(statement: statement))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw StoreError.mismatch("a row decodes only into a keyed type (a struct with properties)", sql: statement.sql)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw StoreError.mismatch("a row decodes only into a keyed type (a struct with properties)", sql: statement.sql)
    }

    /// Decodes `T` from the current row; any failure is a `StoreError` (`SQLITE_MISMATCH`) naming the type and column.
    static func decode<T: Decodable>(_ type: T.Type, from statement: Statement) throws -> T {
        do {
            return try T(from: RowDecoder(statement: statement))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.mismatch("cannot decode \(T.self) from the row: \(error)", sql: statement.sql)
        }
    }
}

private struct RowDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let statement: Statement
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] { statement.columnNames.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { statement.columnIndex(named: key.stringValue) != nil }

    private func index(of key: Key) throws -> Int {
        guard let index = statement.columnIndex(named: key.stringValue) else {
            throw StoreError.mismatch("the row has no column \(key.stringValue)", sql: statement.sql)
        }
        return index
    }

    func decodeNil(forKey key: Key) throws -> Bool { statement.isNull(at: try index(of: key)) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let value = statement.value(at: try index(of: key))
        if let convertible = T.self as? any DatabaseValueConvertible.Type {
            return try convert(value, to: convertible, key: key)
        }
        return try decodeJSON(T.self, from: value, key: key)
    }

    private func convert<T>(_ value: DatabaseValue, to type: any DatabaseValueConvertible.Type, key: Key) throws -> T {
        guard let decoded = type.fromDatabaseValue(value) as? T else {
            throw StoreError.mismatch("column \(key.stringValue): cannot convert \(value) to \(T.self)", sql: statement.sql)
        }
        return decoded
    }

    private func decodeJSON<T: Decodable>(_ type: T.Type, from value: DatabaseValue, key: Key) throws -> T {
        let data: Data
        switch value {
        case .text(let text): data = Data(text.utf8)
        case .blob(let blob): data = blob
        default: throw StoreError.mismatch("column \(key.stringValue): expected JSON text for \(T.self), got \(value)", sql: statement.sql)
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw StoreError.mismatch("column \(key.stringValue): invalid JSON for \(T.self): \(error)", sql: statement.sql)
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw StoreError.mismatch("nested containers are stored as JSON; declare the property with a Codable type", sql: statement.sql)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw StoreError.mismatch("nested containers are stored as JSON; declare the property with a Codable type", sql: statement.sql)
    }

    func superDecoder() throws -> any Decoder { RowDecoder(statement: statement) }
    func superDecoder(forKey key: Key) throws -> any Decoder { RowDecoder(statement: statement) }
}
