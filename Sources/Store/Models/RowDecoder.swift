import Foundation

/// Decodes `Decodable` values from the rows of one statement, column by column.
///
/// One decoder serves every row of a query. A key is matched to a result column by trying
/// the column after the previous key's first (synthesized `init(from:)` reads properties in
/// declaration order, usually the column order of `SELECT *`), then the statement's
/// name→index table. Values of non-`DatabaseValueConvertible` types are read as JSON text.
final class RowDecoder: Decoder {
    let statement: Statement
    /// Per column, its name if it is the first column of that name, else `nil`.
    private let firstColumnNames: [String?]
    /// The column the next key most likely names: the one after the previous key's.
    private var expectedColumn = 0
    private var conversions = ValueConversionCache()

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(statement: Statement) {
        self.statement = statement
        self.firstColumnNames = statement.firstColumnNames
    }

    /// Decodes `T` from the statement's current row; any failure is a `StoreError`
    /// (`SQLITE_MISMATCH`) naming the type and column.
    func decodeRow<T: Decodable>(_ type: T.Type) throws -> T {
        expectedColumn = 0
        do {
            return try T(from: self)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.mismatch("cannot decode \(T.self) from the row: \(error)", sql: statement.sql)
        }
    }

    /// Decodes the statement's remaining rows and appends them to `values`.
    ///
    /// Generic over the collection so that unspecialized code looks up the metadata of the
    /// array type once: `append` on an `[Element]` would look it up again for every row.
    func decodeRemainingRows<C: RangeReplaceableCollection>(into values: inout C) throws where C.Element: Decodable {
        while try statement.step() {
            values.append(try decodeRow(C.Element.self))
        }
    }

    /// Decodes `T` from the current row of `statement`, for a single row; a query reads its
    /// rows with one decoder.
    static func decode<T: Decodable>(_ type: T.Type, from statement: Statement) throws -> T {
        try RowDecoder(statement: statement).decodeRow(type)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowDecodingContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw StoreError.mismatch("a row decodes only into a keyed type (a struct with properties)", sql: statement.sql)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw StoreError.mismatch("a row decodes only into a keyed type (a struct with properties)", sql: statement.sql)
    }

    // MARK: Columns

    /// The index of the first result column named `name`, or `nil`.
    func columnIndex(named name: String) -> Int? {
        let expected = expectedColumn
        let index: Int
        if expected < firstColumnNames.count, firstColumnNames[expected] == name {
            index = expected
        } else if let found = statement.columnIndex(named: name) {
            index = found
        } else {
            return nil
        }
        expectedColumn = index + 1
        return index
    }

    private func requireColumn(named name: String) throws -> Int {
        guard let index = columnIndex(named: name) else {
            throw StoreError.mismatch("the row has no column \(name)", sql: statement.sql)
        }
        return index
    }

    // MARK: Values

    /// Whether column `name` is NULL; throws when there is no such column.
    func isNull(column name: String) throws -> Bool {
        statement.isNull(at: try requireColumn(named: name))
    }

    /// The value of column `name` as `V`, for the types that decoding containers name.
    func decode<V: StandardValue>(_ type: V.Type, column name: String) throws -> V {
        try converted(statement.value(at: requireColumn(named: name)), column: name)
    }

    /// `nil` when there is no column `name` or it is NULL, else its value as `V`.
    func decodeIfPresent<V: StandardValue>(_ type: V.Type, column name: String) throws -> V? {
        guard let index = columnIndex(named: name) else { return nil }
        let value = statement.value(at: index)
        return value.isNull ? nil : try converted(value, column: name) as V
    }

    /// The value of column `name` as any `Decodable` type.
    func decodeAny<T: Decodable>(_ type: T.Type, column name: String) throws -> T {
        try decodeAny(type, at: requireColumn(named: name), column: name)
    }

    /// `nil` when there is no column `name` or it is NULL, else its value as any `Decodable` type.
    func decodeAnyIfPresent<T: Decodable>(_ type: T.Type, column name: String) throws -> T? {
        guard let index = columnIndex(named: name), !statement.isNull(at: index) else { return nil }
        return try decodeAny(type, at: index, column: name)
    }

    private func decodeAny<T: Decodable>(_ type: T.Type, at index: Int, column name: String) throws -> T {
        let value = statement.value(at: index)
        switch conversions.conversion(of: T.self, at: index) {
        case .standard(let standard): return try converted(value, with: standard, column: name)
        case .convertible(let convertible): return try converted(value, with: convertible, column: name)
        case .json: return try decodeJSON(T.self, from: value, column: name)
        }
    }

    private func converted<V: StandardValue>(_ value: DatabaseValue, column name: String) throws -> V {
        do {
            return try V.converted(from: value)
        } catch {
            throw conversionError(value, to: V.self, column: name)
        }
    }

    /// Converts with a type known only at run time to be `T`.
    private func converted<T>(_ value: DatabaseValue, with standard: any StandardValue.Type, column name: String) throws -> T {
        func convert<S: StandardValue>(_: S.Type) throws -> T {
            let converted: S = try self.converted(value, column: name)
            // A `switch` casts in place; `guard let … as? T` would build an `Optional<T>`,
            // whose metadata generic code looks up at run time on every call.
            switch converted {
            case let result as T: return result
            default: throw conversionError(value, to: T.self, column: name)
            }
        }
        return try convert(standard)
    }

    /// Converts with a type known only at run time to be `T`.
    private func converted<T>(_ value: DatabaseValue, with convertible: any DatabaseValueConvertible.Type, column name: String) throws -> T
    {
        guard let result = convertible.fromDatabaseValue(value, as: T.self) else {
            throw conversionError(value, to: T.self, column: name)
        }
        return result
    }

    private func conversionError<T>(_ value: DatabaseValue, to type: T.Type, column name: String) -> StoreError {
        StoreError.mismatch("column \(name): cannot convert \(value) to \(T.self)", sql: statement.sql)
    }

    private func decodeJSON<T: Decodable>(_ type: T.Type, from value: DatabaseValue, column name: String) throws -> T {
        let data: Data
        switch value {
        case .text(let text): data = Data(text.utf8)
        case .blob(let blob): data = blob
        default: throw StoreError.mismatch("column \(name): expected JSON text for \(T.self), got \(value)", sql: statement.sql)
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw StoreError.mismatch("column \(name): invalid JSON for \(T.self): \(error)", sql: statement.sql)
        }
    }
}

private struct RowDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: RowDecoder
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] { decoder.statement.columnNames.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { decoder.columnIndex(named: key.stringValue) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { try decoder.isNull(column: key.stringValue) }

    // The standard types have overloads of their own, so that they are read without a
    // run-time type check; everything else goes through the generic `decode`.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.decode(type, column: key.stringValue) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.decode(type, column: key.stringValue) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.decode(type, column: key.stringValue) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.decode(type, column: key.stringValue) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.decode(type, column: key.stringValue) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.decode(type, column: key.stringValue) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.decode(type, column: key.stringValue) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.decode(type, column: key.stringValue) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.decode(type, column: key.stringValue) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.decode(type, column: key.stringValue) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.decode(type, column: key.stringValue) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.decode(type, column: key.stringValue) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.decode(type, column: key.stringValue) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.decode(type, column: key.stringValue) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder.decodeAny(type, column: key.stringValue) }

    // A missing column or NULL is `nil`, as in the standard library's default implementations.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decoder.decodeIfPresent(type, column: key.stringValue) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try decoder.decodeIfPresent(type, column: key.stringValue)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try decoder.decodeIfPresent(type, column: key.stringValue)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try decoder.decodeIfPresent(type, column: key.stringValue)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decoder.decodeIfPresent(type, column: key.stringValue) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decoder.decodeIfPresent(type, column: key.stringValue) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try decoder.decodeIfPresent(type, column: key.stringValue)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try decoder.decodeIfPresent(type, column: key.stringValue)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try decoder.decodeIfPresent(type, column: key.stringValue)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decoder.decodeIfPresent(type, column: key.stringValue) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try decoder.decodeIfPresent(type, column: key.stringValue)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try decoder.decodeIfPresent(type, column: key.stringValue)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try decoder.decodeIfPresent(type, column: key.stringValue)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try decoder.decodeIfPresent(type, column: key.stringValue)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try decoder.decodeAnyIfPresent(type, column: key.stringValue)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw StoreError.mismatch(
            "nested containers are stored as JSON; declare the property with a Codable type", sql: decoder.statement.sql)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw StoreError.mismatch(
            "nested containers are stored as JSON; declare the property with a Codable type", sql: decoder.statement.sql)
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
}
