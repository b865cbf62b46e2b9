import CSQLite
import Foundation

/// One SQLite connection.
///
/// You receive a `Database` inside `Store.read` and `Store.write` closures; it must not
/// escape them. It runs SQL, caches prepared statements, and nests savepoints.
public final class Database {
    /// The path of the database file (`:memory:` for an in-memory database).
    public let path: String
    let handle: OpaquePointer
    private var statementCache: [String: Statement] = [:]
    private var savepointDepth = 0
    /// Statements and buffers for writing models.
    let modelStatements = ModelStatements()

    /// Opens a connection with the given `sqlite3_open_v2` flags.
    init(path: String, flags: Int32) throws {
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nil)
        guard code == SQLITE_OK, let connection else {
            let error = StoreError(resultCode: code, connection: connection, sql: nil)
            sqlite3_close_v2(connection)
            throw StoreError(code: error.code, extendedCode: error.extendedCode,
                             message: "cannot open \(path): \(error.message)")
        }
        self.path = path
        self.handle = connection
        sqlite3_extended_result_codes(connection, 1)
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    func check(_ code: Int32, sql: String?) throws {
        guard code == SQLITE_OK else { throw StoreError(resultCode: code, connection: handle, sql: sql) }
    }

    // MARK: Statements

    /// Prepares a single SQL statement; throws when `sql` holds more than one.
    public func prepare(sql: String) throws -> Statement {
        var statement: OpaquePointer?
        var hasMoreStatements = false
        let code = sql.withCString { text in
            var remainder: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &remainder)
            hasMoreStatements = remainder.map { !String(cString: $0).allSatisfy(\.isWhitespace) } ?? false
            return code
        }
        try check(code, sql: sql)
        guard let statement else { throw StoreError.misuse("the SQL holds no statement", sql: sql) }
        guard !hasMoreStatements else {
            sqlite3_finalize(statement)
            throw StoreError.misuse("prepare takes one statement; use execute(script:) for several", sql: sql)
        }
        return Statement(database: self, sql: sql, handle: statement)
    }

    /// A prepared statement for `sql`, reused across calls on this connection.
    public func cachedStatement(sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql: sql)
        statementCache[sql] = statement
        return statement
    }

    /// Runs one SQL statement with bound `arguments`, discarding any rows.
    public func execute(sql: String, arguments: [any DatabaseValueConvertible] = []) throws {
        let statement = try cachedStatement(sql: sql)
        try statement.bind(arguments)
        try statement.execute()
    }

    /// Runs a script of several `;`-separated statements that take no arguments.
    public func execute(script: String) throws {
        try script.withCString { start in
            var cursor: UnsafePointer<CChar>? = start
            while let text = cursor, text.pointee != 0 {
                var statement: OpaquePointer?
                var remainder: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, text, -1, &statement, &remainder)
                let statementSQL = Self.text(from: text, to: remainder)
                try check(code, sql: statementSQL)
                cursor = remainder
                guard let statement else { continue }  // whitespace or a comment
                defer { sqlite3_finalize(statement) }
                try Statement.stepToEnd(statement, connection: handle, sql: statementSQL)
            }
        }
    }

    private static func text(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>?) -> String {
        guard let end else { return String(cString: start) }
        let bytes = UnsafeRawBufferPointer(start: start, count: end - start)
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: Queries

    /// A cursor over the rows of `sql`; read it before the closure returns.
    public func cursor(sql: String, arguments: [any DatabaseValueConvertible] = []) throws -> RowCursor {
        let statement = try prepare(sql: sql)
        try statement.bind(arguments)
        return RowCursor(statement: statement)
    }

    /// All rows of `sql`.
    public func fetchRows(sql: String, arguments: [any DatabaseValueConvertible] = []) throws -> [Row] {
        let statement = try cachedStatement(sql: sql)
        try statement.bind(arguments)
        var rows: [Row] = []
        while try statement.step() {
            rows.append(Row(columnNames: statement.columnNames, values: statement.values()))
        }
        return rows
    }

    /// The first column of the first row of `sql` converted to `T`, or `nil` when there is no row or it is NULL.
    public func fetchValue<T: DatabaseValueConvertible>(_ type: T.Type = T.self, sql: String,
                                                        arguments: [any DatabaseValueConvertible] = []) throws -> T? {
        let statement = try cachedStatement(sql: sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        guard try statement.step(), statement.columnCount > 0 else { return nil }
        let value = statement.value(at: 0)
        if value.isNull { return nil }
        return try T.decode(value, context: sql)
    }

    // MARK: State

    /// The rowid of the most recent successful insert on this connection.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    /// The number of rows changed by the most recent INSERT, UPDATE or DELETE.
    public var changesCount: Int { Int(sqlite3_changes64(handle)) }
    /// Whether a transaction is open on this connection.
    public var isInsideTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Interrupts the statement running on this connection; safe to call from any thread.
    func interrupt() { sqlite3_interrupt(handle) }

    // MARK: Transactions

    /// Runs `body` in a savepoint nested in the current transaction: released when `body`
    /// returns, rolled back (to its start) when it throws. Outside a transaction it opens one.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        let name = "\"store_savepoint_\(savepointDepth)\""
        defer { savepointDepth -= 1 }
        try execute(sql: "SAVEPOINT \(name)")
        do {
            let result = try body()
            try execute(sql: "RELEASE SAVEPOINT \(name)")
            return result
        } catch {
            if isInsideTransaction {
                try? execute(sql: "ROLLBACK TRANSACTION TO SAVEPOINT \(name)")
                try? execute(sql: "RELEASE SAVEPOINT \(name)")
            }
            throw error
        }
    }

    /// Begins a transaction of the given kind.
    func begin(_ kind: TransactionKind) throws {
        try execute(sql: "BEGIN \(kind.rawValue) TRANSACTION")
    }

    /// Commits the open transaction.
    func commit() throws { try execute(sql: "COMMIT TRANSACTION") }

    /// Rolls back the open transaction, if any; never throws.
    func rollback() {
        guard isInsideTransaction else { return }
        _ = sqlite3_exec(handle, "ROLLBACK TRANSACTION", nil, nil, nil)
    }
}

/// How a transaction takes its locks (<https://www.sqlite.org/lang_transaction.html>).
enum TransactionKind: String {
    /// Takes locks on first access; used for reads.
    case deferred = "DEFERRED"
    /// Takes the write lock at once; used for writes so they never fail half-way with `SQLITE_BUSY`.
    case immediate = "IMMEDIATE"
}

extension Statement {
    static func stepToEnd(_ handle: OpaquePointer, connection: OpaquePointer, sql: String) throws {
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            if code != SQLITE_ROW { throw StoreError(resultCode: code, connection: connection, sql: sql) }
        }
    }
}
