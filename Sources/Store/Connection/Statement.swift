import CSQLite
import Foundation

/// SQLite's `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the call returns.
let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared SQL statement on one connection.
///
/// Statements are made by a `Database` and live only inside the closure that received
/// that database; they are not `Sendable`.
public final class Statement {
    /// The SQL text, as prepared.
    public let sql: String
    @usableFromInline let handle: OpaquePointer
    unowned let database: Database

    /// The number of result columns.
    public let columnCount: Int
    /// The names of the result columns, in order.
    public private(set) lazy var columnNames: [String] = (0..<columnCount).map { index in
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }
    /// Result column indexes by name, built once per statement for row decoding.
    private lazy var columnIndexes: [String: Int] = {
        var indexes: [String: Int] = [:]
        for (index, name) in columnNames.enumerated() where indexes[name] == nil {
            indexes[name] = index
        }
        return indexes
    }()

    /// The index of the first result column named `name`, or `nil`.
    func columnIndex(named name: String) -> Int? { columnIndexes[name] }

    /// Per result column, its name if it is the first column of that name (the one that
    /// `columnIndex(named:)` finds), else `nil`: row decoding checks a guessed index against it.
    private(set) lazy var firstColumnNames: [String?] = columnNames.indices.map { index in
        columnIndexes[columnNames[index]] == index ? columnNames[index] : nil
    }

    /// Whether executing the statement cannot change the database.
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// What running the statement does besides changing rows; known on the writer connection
    /// only, and updated when SQLite prepares the statement again after a schema change.
    var effects: StatementEffects?
    /// Whether the statement is in its database's `steppedStatements`.
    var isNotedAsStepped = false

    init(database: Database, sql: String, handle: OpaquePointer, effects: StatementEffects?) {
        self.database = database
        self.effects = effects
        self.sql = sql
        self.handle = handle
        self.columnCount = Int(sqlite3_column_count(handle))
    }

    deinit { sqlite3_finalize(handle) }

    /// The number of `?` parameters.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Resets the statement and binds `arguments` to its parameters, in order.
    ///
    /// Throws `SQLITE_RANGE` when the count does not match, and `SQLITE_MISMATCH` for NaN,
    /// which SQLite would silently store as NULL.
    public func bind(_ arguments: [any DatabaseValueConvertible]) throws {
        guard arguments.count == parameterCount else {
            throw StoreError(code: .range, message: "statement expects \(parameterCount) arguments, got \(arguments.count)", sql: sql)
        }
        reset()
        for (offset, argument) in arguments.enumerated() {
            try bind(argument.databaseValue, at: offset + 1)
        }
    }

    /// Binds one value to the parameter at `index` (1-based, as in SQLite): text with its byte
    /// length, so that a NUL inside it is stored rather than ending it; empty data as an empty blob.
    public func bind(_ value: DatabaseValue, at index: Int) throws {
        let position = Int32(index)
        let code = value.withSQLiteArgument { argument in
            switch argument {
            case .null: sqlite3_bind_null(handle, position)
            case .integer(let number): sqlite3_bind_int64(handle, position, number)
            case .real(let number): sqlite3_bind_double(handle, position, number)
            case .text(let text, let count): sqlite3_bind_text64(handle, position, text, count, transientDestructor, UInt8(SQLITE_UTF8))
            case .blob(let bytes, let count): sqlite3_bind_blob64(handle, position, bytes, count, transientDestructor)
            case .emptyBlob: sqlite3_bind_zeroblob(handle, position, 0)
            }
        }
        guard let code else { throw StoreError.mismatch("\(DatabaseValue.notANumberMessage) (parameter \(index))", sql: sql) }
        // Checked here first: reaching the unowned `database` costs a retain and a release per value.
        if code != SQLITE_OK { try database.check(code, sql: sql) }
    }

    /// Advances to the next row: `true` if a row is available, `false` when done.
    @discardableResult
    public func step() throws -> Bool {
        let database = self.database  // reached once: each access to an unowned reference retains and releases
        try database.checkStatementMayRun(self)
        let capture = database.changeCapture
        capture?.willStep(self)
        let code = sqlite3_step(handle)
        capture?.didStep(self, result: code)
        guard code == SQLITE_ROW else { return try stepEnded(code) }
        if !isNotedAsStepped { database.noteStepped(self) }
        return true
    }

    /// Steps through every row, calling `body` on each, as `while try step() { try body() }`.
    ///
    /// The first step is a full `step()`: it checks that the statement may run, goes through
    /// change capture and notes the statement as open. On a connection without change capture
    /// (a reader) the next rows come from `sqlite3_step` alone, since nothing those checks guard
    /// can change between two rows of one loop: the connection stays the caller's until its
    /// closure returns, and SQLite re-prepares a statement only before its first row.
    @inlinable
    package func forEachRow(_ body: () throws -> Void) throws {
        guard try step() else { return }
        try body()
        if isCaptured {
            while try step() { try body() }
            return
        }
        while true {
            let code = sqlite3_step(handle)
            guard code == SQLITE_ROW else {
                _ = try stepEnded(code)
                return
            }
            try body()
        }
    }

    /// Whether the statement's connection records changes (the writer): each step then goes through `step()`.
    @usableFromInline
    var isCaptured: Bool { database.changeCapture != nil }

    /// The end of stepping, for a result code other than `SQLITE_ROW`: `false` for `SQLITE_DONE`,
    /// else the statement is reset and the error thrown.
    @usableFromInline
    func stepEnded(_ code: Int32) throws -> Bool {
        guard code != SQLITE_DONE else { return false }
        let error = StoreError(resultCode: code, connection: database.handle, sql: sql)
        sqlite3_reset(handle)
        throw error
    }

    /// Runs the statement to completion, ignoring any rows.
    public func execute() throws {
        while try step() {}
    }

    /// Rewinds the statement so it can run again; bindings are kept.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// The value of column `index` (0-based) in the current row.
    public func value(at index: Int) -> DatabaseValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            let length = Int(sqlite3_column_bytes(handle, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
        case SQLITE_BLOB:
            let length = Int(sqlite3_column_bytes(handle, column))
            guard length > 0, let bytes = sqlite3_column_blob(handle, column) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: length))
        default: return .null
        }
    }

    /// The values of every column in the current row.
    public func values() -> [DatabaseValue] {
        (0..<columnCount).map(value(at:))
    }

    /// Whether column `index` of the current row is NULL.
    func isNull(at index: Int) -> Bool {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
    }

    /// The integer in column `index`, read without boxing (`nil` when it is not an INTEGER).
    package func integer(at index: Int) -> Int64? {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_INTEGER ? sqlite3_column_int64(handle, Int32(index)) : nil
    }
}
