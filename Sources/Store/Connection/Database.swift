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
    private var statementCache = StatementCache()
    /// Statements that returned a row since the transaction began: the ones that may still be
    /// open when it ends (see `resetActiveStatements`).
    var steppedStatements: [Statement] = []
    /// The list's length at which `noteStepped` drops the statements no longer open.
    var steppedStatementsLimit = Database.minimumSteppedStatementsLimit
    /// The rowid names of tables, while the schema stays the same.
    let rowIDNames = RowIDNameCache()
    /// The tables known to be rowid tables (see `requireRowIDTable`), by change capture's schema
    /// generation in the store's write transactions on the writer, by schema version elsewhere.
    let rowIDTablesByCapture = RowIDTableCache()
    let rowIDTablesByVersion = RowIDTableCache()
    private var savepointDepth = 0
    /// Statements and buffers for writing models.
    let modelStatements = ModelStatements()
    /// Records row changes; installed on a store's writer connection only.
    package var changeCapture: ChangeCapture?
    /// Called before each write transaction commits, with its changes; installed on a store's
    /// writer connection when its configuration names one (the sync module's recorder).
    package var commitParticipant: (any CommitParticipant)?
    /// Whether the open write transaction applies changes made elsewhere (another device's,
    /// through sync): change capture publishes them with `StoreChanges.isRemote` set. Reset
    /// when the write ends.
    package var isApplyingRemoteChanges = false
    /// Whether the caller may use the connection now: always for a connection of its own,
    /// only while a job of its queue runs for a store's connection (see `SerializedConnection`).
    var isAccessible = true
    /// Whether the store opened the transaction the caller's statements run in (`write`, a
    /// migration): statements that would end it are refused, and so is any statement once
    /// it ended anyway (a `ROLLBACK` conflict resolution), so that nothing commits on its own.
    var storeOwnsTransaction = false
    /// What the connection's WAL hook calls (a store's ``WALCheckpointer``), kept as long as the connection.
    var walHookOwner: AnyObject?
    /// The innermost `recordingStatements` call running, if any.
    var statementRecorder: StatementRecorder?

    /// Opens a connection with the given `sqlite3_open_v2` flags.
    init(path: String, flags: Int32) throws {
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nil)
        guard code == SQLITE_OK, let connection else {
            let error = StoreError(resultCode: code, connection: connection, sql: nil)
            sqlite3_close_v2(connection)
            throw StoreError(
                code: error.code, extendedCode: error.extendedCode,
                message: "cannot open \(path): \(error.message)")
        }
        self.path = path
        self.handle = connection
        sqlite3_extended_result_codes(connection, 1)
    }

    deinit { close() }

    /// Whether `close()` ran: the handle is gone and nothing may use it.
    private(set) var isClosed = false

    /// Finalizes the connection's statements and closes it (in WAL mode, the last connection
    /// to a file that closes checkpoints it and removes its `-wal` and `-shm` files).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        isAccessible = false
        steppedStatements.removeAll()
        modelStatements.removeAll()
        statementCache.removeAll()
        rowIDNames.removeAll()
        rowIDTablesByCapture.removeAll()
        rowIDTablesByVersion.removeAll()
        // A `Statement` kept beyond its closure still holds the connection: SQLite then
        // closes it when that statement is finalized.
        if sqlite3_close(handle) != SQLITE_OK { sqlite3_close_v2(handle) }
        changeCapture = nil
    }

    func check(_ code: Int32, sql: String?) throws {
        guard code == SQLITE_OK else { throw StoreError(resultCode: code, connection: handle, sql: sql) }
    }

    // MARK: Statements

    /// Prepares a single SQL statement; throws when `sql` holds more than one.
    public func prepare(sql: String) throws -> Statement {
        try sql.withCString { text in
            let (first, tail) = try prepareFirst(text, persistent: true)
            guard let statement = first else { throw StoreError.misuse("the SQL holds no statement", sql: sql) }
            // Trailing comments are fine; a second statement is not.
            if let tail, try prepareFirst(tail, persistent: false).statement != nil {
                throw StoreError.misuse("prepare takes one statement; use execute(script:) for several", sql: sql)
            }
            return statement
        }
    }

    /// Prepares the first statement of `text`; returns it (`nil` when there is only
    /// whitespace or comments) and where the rest of the text starts.
    private func prepareFirst(_ text: UnsafePointer<CChar>, persistent: Bool) throws
        -> (statement: Statement?, tail: UnsafePointer<CChar>?)
    {
        try checkAccessible(sql: nil)
        var handle: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        changeCapture?.willPrepare()
        let code = sqlite3_prepare_v3(self.handle, text, -1, persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0, &handle, &tail)
        guard code == SQLITE_OK else {
            _ = changeCapture?.didPrepare(sql: "")
            let sql = String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
            throw StoreError(resultCode: code, connection: self.handle, sql: sql)
        }
        let sql = Self.text(from: text, to: tail)
        let effects = changeCapture?.didPrepare(sql: sql)
        let rest = tail.flatMap { $0.pointee == 0 ? nil : $0 }
        guard let handle else { return (nil, rest) }
        return (Statement(database: self, sql: sql, handle: handle, effects: effects), rest)
    }

    private static func text(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>?) -> String {
        guard let end else { return String(cString: start) }
        let bytes = UnsafeRawBufferPointer(start: start, count: end - start)
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A prepared statement for `sql`, reused across calls on this connection.
    public func cachedStatement(sql: String) throws -> Statement {
        if let statement = statementCache.statement(for: sql) {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql: sql)
        statementCache.insert(statement, for: sql)
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
            var next: UnsafePointer<CChar>? = start
            while let text = next {
                let (statement, tail) = try prepareFirst(text, persistent: false)
                try statement?.execute()
                next = tail
            }
        }
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
        defer { statement.reset() }
        var rows: [Row] = []
        while try statement.step() {
            rows.append(Row(columnNames: statement.columnNames, values: statement.values()))
        }
        return rows
    }

    /// The first column of the first row of `sql` converted to `T`, or `nil` when there is no row or it is NULL.
    public func fetchValue<T: DatabaseValueConvertible>(
        _ type: T.Type = T.self, sql: String,
        arguments: [any DatabaseValueConvertible] = []
    ) throws -> T? {
        let statement = try cachedStatement(sql: sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        guard try statement.step(), statement.columnCount > 0 else { return nil }
        let value = statement.value(at: 0)
        if value.isNull { return nil }
        return try T.decode(value, context: sql)
    }

    // MARK: State

    /// How many statements `cachedStatement(sql:)` keeps now (at most `StatementCache.defaultCapacity`).
    var cachedStatementCount: Int { statementCache.count }

    /// The rowid of the most recent successful insert on this connection.
    public var lastInsertedRowID: Int64 { isClosed ? 0 : sqlite3_last_insert_rowid(handle) }
    /// The number of rows changed by the most recent INSERT, UPDATE or DELETE.
    public var changesCount: Int { isClosed ? 0 : Int(sqlite3_changes64(handle)) }
    /// Whether a transaction is open on this connection.
    public var isInsideTransaction: Bool { !isClosed && sqlite3_get_autocommit(handle) == 0 }

    // MARK: Guards

    /// Throws `SQLITE_MISUSE` when this connection was handed to a closure that has returned.
    func checkAccessible(sql: String?) throws {
        guard isAccessible else {
            throw StoreError.misuse(
                "the Database was used after the closure it was given to returned; use it only inside that closure", sql: sql)
        }
    }

    /// Throws `SQLITE_MISUSE`, before `statement` runs, when it may not: the connection is no
    /// longer the caller's, or the statement would end or run outside the store's transaction.
    func checkStatementMayRun(_ statement: Statement) throws {
        try checkAccessible(sql: statement.sql)
        guard storeOwnsTransaction else { return }
        if statement.effects?.controlsTransaction == true {
            throw StoreError.misuse(
                "BEGIN, COMMIT, END and ROLLBACK are the store's: the transaction commits when the closure returns "
                    + "and rolls back when it throws; use db.transaction { } or SAVEPOINT for nested work", sql: statement.sql)
        }
        if !isInsideTransaction {
            throw StoreError.misuse(
                "the transaction was rolled back (a ROLLBACK conflict resolution, RAISE(ROLLBACK) or an I/O error); "
                    + "nothing was committed and no statement may run until the closure ends", sql: statement.sql)
        }
    }

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
    package func begin(_ kind: TransactionKind) throws {
        try execute(sql: "BEGIN \(kind.rawValue) TRANSACTION")
    }

    /// Commits the open transaction.
    package func commit() throws { try execute(sql: "COMMIT TRANSACTION") }

    /// Rolls back the open transaction, if any; never throws.
    package func rollback() {
        guard isInsideTransaction else { return }
        _ = sqlite3_exec(handle, "ROLLBACK TRANSACTION", nil, nil, nil)
    }
}

/// How a transaction takes its locks (<https://www.sqlite.org/lang_transaction.html>).
package enum TransactionKind: String {
    /// Takes locks on first access; used for reads.
    case deferred = "DEFERRED"
    /// Takes the write lock at once; used for writes so they never fail half-way with `SQLITE_BUSY`.
    case immediate = "IMMEDIATE"
}
