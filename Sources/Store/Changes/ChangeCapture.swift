import Foundation
import CSQLite

/// Records, on the writer connection, which rows each transaction changes, and hands the
/// changes of every committed transaction to `publish` once the commit has succeeded.
///
/// Rows come from SQLite's pre-update hook where the library has it (it also reports rows
/// deleted by REPLACE conflict resolution, and its presence turns off the truncate
/// optimization), otherwise from the update hook, with the authorizer turning off the
/// truncate optimization and REPLACE statements reported as whole-table changes.
/// Savepoints, schema changes and `VACUUM` are recognised when statements are prepared.
final class ChangeCapture {
    enum Source {
        case preUpdateHook
        case updateHook

        /// The best source this SQLite library offers.
        static var best: Source {
            #if os(Linux)
            .preUpdateHook
            #else
            .updateHook
            #endif
        }
    }

    private unowned let database: Database
    private let source: Source
    private let publish: (StoreChanges) -> Void
    private var log = RowChangeLog()
    private var commitRequested = false
    private var preparing: StatementEffects?
    private var running: StatementEffects?
    private var withoutRowIDTables: Set<String> = []
    private var dataVersion: Int64?
    /// The table of the last row event of the running statement; cleared between statements,
    /// since a schema change may free a table name and reuse its memory.
    private var lastTable: (pointer: UnsafePointer<CChar>, name: String)?

    init(database: Database, source: Source = .best, publish: @escaping (StoreChanges) -> Void) throws {
        self.database = database
        self.source = source
        self.publish = publish
        try install()
        try reloadSchemaFacts()
        dataVersion = try database.fetchValue(Int64.self, sql: "PRAGMA data_version")
    }

    // MARK: Statements

    /// Called by `Database.prepare` around `sqlite3_prepare`.
    func willPrepare() { preparing = StatementEffects() }

    func didPrepare(sql: String) -> StatementEffects {
        var effects = preparing ?? StatementEffects()
        preparing = nil
        effects.inspect(sql: sql)
        return effects
    }

    /// Called by `Statement.step` before `sqlite3_step`.
    func willStep(_ effects: StatementEffects?) {
        running = effects
        lastTable = nil
        guard let effects else { return }
        if effects.changesSchema { log.recordAllTables() }
        if source == .updateHook {
            // The update hook is silent for WITHOUT ROWID tables.
            for table in effects.writtenTables where withoutRowIDTables.contains(table) { log.recordWholeTable(table) }
        }
    }

    /// Called by `Statement.step` after `sqlite3_step` with its result code; publishes a
    /// commit that succeeded.
    func didStep(_ effects: StatementEffects?, result: Int32) {
        running = nil
        let succeeded = result == SQLITE_ROW || result == SQLITE_DONE
        if succeeded, let savepoint = effects?.savepoint { apply(savepoint) }
        if commitRequested {
            commitRequested = false
            // A COMMIT that failed (e.g. SQLITE_BUSY) leaves the transaction open with its events.
            if succeeded { publishIfNotEmpty(log.takeCommitted()) }
        } else if result == SQLITE_DONE, !database.isInsideTransaction, !log.isEmpty {
            // Finished outside any transaction without a commit hook call: VACUUM.
            publishIfNotEmpty(log.takeCommitted())
        }
        // Best effort: should the query fail, WITHOUT ROWID tables created since go unrecognised until the next schema change.
        if succeeded, effects?.changesSchema == true { try? reloadSchemaFacts() }
    }

    private func apply(_ savepoint: StatementEffects.SavepointOperation) {
        switch savepoint {
        case .begin(let name): log.beginSavepoint(name)
        case .release(let name): log.releaseSavepoint(name)
        case .rollback(let name): log.rollbackToSavepoint(name)
        }
    }

    private func publishIfNotEmpty(_ changes: StoreChanges) {
        if !changes.isEmpty { publish(changes) }
    }

    private func reloadSchemaFacts() throws {
        let rows = try database.fetchRows(sql: "SELECT name FROM pragma_table_list WHERE schema = 'main' AND wr = 1")
        withoutRowIDTables = Set(rows.compactMap { $0[0].stringValue?.lowercased() })
    }

    // MARK: Other connections

    /// Publishes an external change when another connection or process committed since the
    /// last check (`PRAGMA data_version`). Must run on the writer, outside a transaction.
    func checkDataVersion() throws {
        guard !database.isInsideTransaction else { return }
        let version = try database.fetchValue(Int64.self, sql: "PRAGMA data_version")
        guard version != dataVersion else { return }
        dataVersion = version
        try reloadSchemaFacts()
        publish(StoreChanges(affectsAllTables: true, isExternal: true))
    }

    // MARK: Hook callbacks

    fileprivate func rowChanged(operation: Int32, databaseName: UnsafePointer<CChar>?, table: UnsafePointer<CChar>?,
                                oldRowID: Int64, newRowID: Int64) {
        guard let databaseName, let table, strcmp(databaseName, "main") == 0 else { return }
        let name = tableName(table)
        if withoutRowIDTables.contains(name) {
            // The hook's rowids mean nothing for a WITHOUT ROWID table.
            log.recordWholeTable(name)
            return
        }
        if source == .updateHook, operation == SQLITE_INSERT, running?.mayReplace == true {
            log.recordWholeTable(name)
        }
        switch operation {
        case SQLITE_INSERT: log.recordInsert(table: name, rowID: newRowID)
        case SQLITE_DELETE: log.recordDelete(table: name, rowID: oldRowID)
        case SQLITE_UPDATE where oldRowID != newRowID:
            log.recordDelete(table: name, rowID: oldRowID)
            log.recordInsert(table: name, rowID: newRowID)
        default: log.recordUpdate(table: name, rowID: newRowID)
        }
    }

    /// The lowercased name of the table SQLite passes to the hooks. SQLite passes the same
    /// pointer for every row of a table, so within one statement the name is built once.
    private func tableName(_ table: UnsafePointer<CChar>) -> String {
        if let cached = lastTable, cached.pointer == table { return cached.name }
        let name = String(cString: table).lowercased()
        lastTable = (table, name)
        return name
    }

    fileprivate func committing() { commitRequested = true }

    fileprivate func rolledBack() {
        commitRequested = false
        log.discard()
    }

    fileprivate func authorize(action: Int32, _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?) -> Int32 {
        preparing?.authorize(action: action, first.map { String(cString: $0) }, second.map { String(cString: $0) })
        // Answering IGNORE to a DELETE makes SQLite delete row by row, so the update hook sees each row.
        return source == .updateHook && action == SQLITE_DELETE ? SQLITE_IGNORE : SQLITE_OK
    }

    private func install() throws {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let handle = database.handle
        switch source {
        case .preUpdateHook: installPreUpdateHook(handle, context)
        case .updateHook:
            sqlite3_update_hook(handle, { context, operation, databaseName, table, rowID in
                guard let context else { return }
                Unmanaged<ChangeCapture>.fromOpaque(context).takeUnretainedValue()
                    .rowChanged(operation: operation, databaseName: databaseName, table: table, oldRowID: rowID, newRowID: rowID)
            }, context)
        }
        sqlite3_commit_hook(handle, { context in
            guard let context else { return 0 }
            Unmanaged<ChangeCapture>.fromOpaque(context).takeUnretainedValue().committing()
            return 0
        }, context)
        sqlite3_rollback_hook(handle, { context in
            guard let context else { return }
            Unmanaged<ChangeCapture>.fromOpaque(context).takeUnretainedValue().rolledBack()
        }, context)
        let code = sqlite3_set_authorizer(handle, { context, action, first, second, _, _ in
            guard let context else { return SQLITE_OK }
            return Unmanaged<ChangeCapture>.fromOpaque(context).takeUnretainedValue().authorize(action: action, first, second)
        }, context)
        try database.check(code, sql: nil)
    }

    private func installPreUpdateHook(_ handle: OpaquePointer, _ context: UnsafeMutableRawPointer) {
        #if os(Linux)
        sqlite3_preupdate_hook(handle, { context, _, operation, databaseName, table, oldRowID, newRowID in
            guard let context else { return }
            Unmanaged<ChangeCapture>.fromOpaque(context).takeUnretainedValue()
                .rowChanged(operation: operation, databaseName: databaseName, table: table, oldRowID: oldRowID, newRowID: newRowID)
        }, context)
        #endif
    }
}
