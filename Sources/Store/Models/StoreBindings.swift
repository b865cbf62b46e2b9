import CSQLite
import Foundation

/// The parameters of a write statement, bound by column index: what a model's
/// `encode(to:)` fills.
///
/// Column `i` of the model (in the order of its `storeColumns`) goes to the parameter the
/// statement chose for it; a statement that writes only some columns skips the others.
/// The `bind` overloads bind the library's value types (`StatementValue`) straight with the
/// C API, specialized into the caller; any other `Encodable` type is bound through its
/// `DatabaseValueConvertible` conformance or as JSON text (`nil` as NULL).
public struct StoreBindings {
    @usableFromInline let statement: Statement
    @usableFromInline let handle: OpaquePointer
    /// Per model column, its parameter (1-based) or 0 to skip it; `nil` binds column `i` to parameter `i + 1`.
    @usableFromInline let parameters: [Int32]?

    init(statement: Statement, parameters: [Int32]? = nil) {
        self.statement = statement
        self.handle = statement.handle
        self.parameters = parameters
    }

    /// Binds `value` for column `column` (0-based).
    @inlinable
    public func bind<T: StatementValue>(_ value: T, at column: Int32) throws {
        let parameter = self.parameter(for: column)
        guard parameter > 0 else { return }
        try value.bind(to: self, parameter: parameter)
    }

    /// Binds `value`, or NULL for `nil`, for column `column` (0-based).
    @inlinable
    public func bind<T: StatementValue>(_ value: T?, at column: Int32) throws {
        let parameter = self.parameter(for: column)
        guard parameter > 0 else { return }
        guard let value else { return try check(sqlite3_bind_null(handle, parameter), parameter: parameter) }
        try value.bind(to: self, parameter: parameter)
    }

    /// Binds a value of any other `Encodable` type for column `column` (0-based): its
    /// `DatabaseValueConvertible` value if it has one, else its JSON text (`nil` as NULL).
    public func bind<T: Encodable>(_ value: T, at column: Int32) throws {
        let parameter = self.parameter(for: column)
        guard parameter > 0 else { return }
        if let convertible = value as? any DatabaseValueConvertible {
            return try statement.bind(convertible.databaseValue, at: Int(parameter))
        }
        let json: Data
        do {
            json = try JSONEncoder().encode(value)
        } catch {
            throw StoreError.mismatch("cannot encode \(T.self) as JSON: \(error)", sql: statement.sql)
        }
        let text = String(decoding: json, as: UTF8.self)
        try statement.bind(text == "null" ? .null : .text(text), at: Int(parameter))
    }

    @inlinable
    func parameter(for column: Int32) -> Int32 {
        guard let parameters else { return column + 1 }
        return Int(column) < parameters.count ? parameters[Int(column)] : 0
    }

    /// Throws the connection's error unless `code` is `SQLITE_OK`.
    @inlinable
    public func check(_ code: Int32, parameter: Int32) throws {
        if code != SQLITE_OK { try fail(code, parameter: parameter) }
    }

    @usableFromInline
    func fail(_ code: Int32, parameter: Int32) throws {
        try statement.database.check(code, sql: statement.sql)
    }

    /// The error for a NaN, which SQLite would silently store as NULL.
    @usableFromInline
    func notANumber(parameter: Int32) -> StoreError {
        StoreError.mismatch("\(DatabaseValue.notANumberMessage) (parameter \(parameter))", sql: statement.sql)
    }
}
