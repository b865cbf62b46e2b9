import CSQLite
import Foundation

/// The current row of a query, read column by column by index: what a model's
/// `init(row:)` receives.
///
/// The `decode` overloads read the library's value types (`StatementValue`) straight from
/// the statement with the C API, and are specialized into the caller; any other `Codable`
/// type is read through its `DatabaseValueConvertible` conformance or as JSON text.
/// A value that does not convert, or NULL for a non-optional type, throws a `StoreError`
/// (`SQLITE_MISMATCH`) naming the column.
public struct StoreRow {
    @usableFromInline let statement: Statement
    @usableFromInline let handle: OpaquePointer

    @usableFromInline
    init(statement: Statement) {
        self.statement = statement
        self.handle = statement.handle
    }

    /// The value of column `index` (0-based) as `T`.
    @inlinable
    public func decode<T: StatementValue>(_ type: T.Type, at index: Int32) throws -> T {
        if let value = T.read(column: index, of: handle) { return value }
        return try convert(T.self, at: index)
    }

    /// The value of column `index` (0-based) as `T`, or `nil` when it is NULL.
    @inlinable
    public func decode<T: StatementValue>(_ type: T?.Type, at index: Int32) throws -> T? {
        if let value = T.read(column: index, of: handle) { return value }
        if sqlite3_column_type(handle, index) == SQLITE_NULL { return nil }
        return try convert(T.self, at: index)
    }

    /// The value of column `index` (0-based) as any other `Decodable` type: through its
    /// `DatabaseValueConvertible` conformance if it has one, else as JSON text (NULL is
    /// JSON `null`, so an optional reads it as `nil`).
    public func decode<T: Decodable>(_ type: T.Type, at index: Int32) throws -> T {
        let value = statement.value(at: Int(index))
        if let convertible = T.self as? any DatabaseValueConvertible.Type {
            return try converted(value, with: convertible, at: index)
        }
        return try json(T.self, from: value, at: index)
    }

    /// The value of column `index` in another storage class than `T`'s own, converted as
    /// `T.fromDatabaseValue` does.
    @usableFromInline
    func convert<T: StatementValue>(_ type: T.Type, at index: Int32) throws -> T {
        let value = statement.value(at: Int(index))
        guard let converted = T.fromDatabaseValue(value) else { throw mismatch(value, T.self, at: index) }
        return converted
    }

    private func converted<T>(
        _ value: DatabaseValue, with convertible: any DatabaseValueConvertible.Type,
        at index: Int32
    ) throws -> T {
        guard let converted = convertible.fromDatabaseValue(value, as: T.self) else { throw mismatch(value, T.self, at: index) }
        return converted
    }

    private func json<T: Decodable>(_ type: T.Type, from value: DatabaseValue, at index: Int32) throws -> T {
        let data: Data
        switch value {
        case .null: data = Data("null".utf8)
        case .text(let text): data = Data(text.utf8)
        case .blob(let blob): data = blob
        default: throw mismatch(value, T.self, at: index)
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw StoreError.mismatch("column \(columnName(index)): invalid JSON for \(T.self): \(error)", sql: statement.sql)
        }
    }

    private func mismatch<T>(_ value: DatabaseValue, _ type: T.Type, at index: Int32) -> StoreError {
        StoreError.mismatch("column \(columnName(index)): cannot convert \(value) to \(T.self)", sql: statement.sql)
    }

    private func columnName(_ index: Int32) -> String {
        Int(index) < statement.columnCount ? statement.columnNames[Int(index)] : "#\(index)"
    }
}
