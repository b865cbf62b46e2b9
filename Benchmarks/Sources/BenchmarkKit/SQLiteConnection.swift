import CSQLiteBench

/// One SQLite connection with the benchmark's per-connection pragmas, closed when released.
///
/// The raw C contender drives `handle` with the C API directly; this type only owns it.
public final class SQLiteConnection {
    /// The underlying `sqlite3 *`.
    public let handle: OpaquePointer

    /// Opens (creating if needed) the database file at `path` and applies `synchronous = NORMAL`.
    public init(path: String) throws {
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            sqlite3_close_v2(opened)
            throw SQLiteError(code: code, message: message)
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        try execute(BenchmarkSchema.synchronousPragma)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more SQL statements that return no rows the caller needs.
    public func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil))
    }

    /// Compiles one SQL statement.
    public func prepare(_ sql: String) throws -> PreparedStatement {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil))
        guard let statement else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "no statement in \(sql)")
        }
        return PreparedStatement(handle: statement, connection: self)
    }

    /// Throws the connection's current error unless `code` is `SQLITE_OK`, `SQLITE_ROW` or `SQLITE_DONE`.
    public func check(_ code: Int32) throws {
        guard code == SQLITE_OK || code == SQLITE_ROW || code == SQLITE_DONE else {
            throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
        }
    }
}
