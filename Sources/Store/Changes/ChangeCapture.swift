import CSQLite
import Foundation

/// Records, on the writer connection, which rows each transaction changes, and hands the
/// changes of every committed transaction to `publish` once the commit has succeeded.
///
/// Rows come from SQLite's pre-update hook where the linked library has it (it also reports
/// rows deleted by REPLACE conflict resolution, and its presence turns off the truncate
/// optimization), otherwise from the update hook, with the authorizer turning off the
/// truncate optimization and REPLACE statements reported as whole-table changes.
/// Savepoints, schema changes and `VACUUM` are recognised by the authorizer each time SQLite
/// prepares a statement, including the re-preparations it makes inside `sqlite3_step`.
///
/// Each statement's events can be taken back (see `RowChangeLog`): a statement that fails is
/// resolved as SQLite resolved it, see `resolveFailedStatement`.
package final class ChangeCapture {
    enum Source: CaseIterable {
        case preUpdateHook
        case updateHook

        /// The best source the linked SQLite library offers.
        static var best: Source { PreUpdateHook.linked != nil ? .preUpdateHook : .updateHook }

        /// The sources the linked SQLite library offers, best first.
        static var available: [Source] { PreUpdateHook.linked != nil ? [.preUpdateHook, .updateHook] : [.updateHook] }
    }

    private unowned let database: Database
    /// The database's connection, reached without going through the unowned reference.
    private let connection: OpaquePointer
    let source: Source
    private let preUpdateHook: PreUpdateHook?
    private let publish: (StoreChanges) -> Void
    /// Whether anybody receives published changes now; when not, a commit skips building them.
    private let isObserved: () -> Bool
    /// Unchecked exclusivity (here, on `repreparing` and on `hookTable`): every step or row event
    /// accesses these, and the runtime's dynamic check cost more than the rest of the event. It is
    /// safe because no two accesses can overlap: the capture is used on its connection's queue
    /// alone, and neither `RowChangeLog`, `StatementEffects` nor `HookTableCache` calls out while
    /// one of its methods runs (the hooks and the authorizer that modify them fire inside
    /// `sqlite3_prepare`, `sqlite3_step`, COMMIT and ROLLBACK, never from within them;
    /// `hookTable`'s `resolve` closure reads `facts` only).
    @exclusivity(unchecked) private var log = RowChangeLog()
    private var commitRequested = false
    /// Authorizer answers gathered while `sqlite3_prepare` runs.
    private var preparing: StatementEffects?
    /// Whether `sqlite3_step` is running; authorizer calls then come from a re-preparation.
    private var isStepping = false
    /// The effects of the statement being re-prepared inside `sqlite3_step`.
    @exclusivity(unchecked) private var repreparing: StatementEffects?
    /// Whether the running statement's own rows may include rows deleted through REPLACE
    /// (`SchemaFacts.replacesOwnRows`; see also `mayReplaceRows`).
    private var runningMayReplace = true
    /// How many of the running statement's row events were its own rows that SQLite counts in
    /// `sqlite3_changes64` (pre-update hook only: its depth tells them from triggers' rows).
    private var countedOwnRows = 0
    private var facts = SchemaFacts()
    private var factsAreStale = true
    /// Counts the loads of `facts`: it changes whenever the schema may have changed.
    private var factsGeneration: Int64 = 0
    /// Whether the open transaction changed the schema: its rollback must reload the facts.
    private var transactionChangedSchema = false
    private var dataVersion: Int64?
    /// The table of the last row event.
    @exclusivity(unchecked) private var hookTable = HookTableCache()

    init(
        database: Database, source: Source = .best, isObserved: @escaping () -> Bool = { true },
        publish: @escaping (StoreChanges) -> Void
    ) throws {
        self.database = database
        self.connection = database.handle
        self.isObserved = isObserved
        self.source = PreUpdateHook.linked == nil ? .updateHook : source
        self.preUpdateHook = self.source == .preUpdateHook ? PreUpdateHook.linked : nil
        self.publish = publish
        try install()
        try refreshFacts()
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
    func willStep(_ statement: Statement) {
        if factsAreStale { try? refreshFacts() }
        // The common case, no ON CONFLICT REPLACE in the schema, reads one field in place.
        runningMayReplace =
            facts.tablesReplacingOnConflict.isEmpty
            ? statement.effects?.mayReplace ?? true : statement.effects.map(facts.replacesOwnRows) ?? true
        countedOwnRows = 0
        isStepping = true
        // Fields are tested in place first: binding `effects` copies it (its sets and dictionaries).
        if statement.effects?.changesSchema == true || source == .updateHook, let effects = statement.effects {
            recordStatementWideEffects(effects)
        }
    }

    /// Called by `Statement.step` after `sqlite3_step` with its result code; publishes a
    /// commit that succeeded.
    func didStep(_ statement: Statement, result: Int32) {
        isStepping = false
        if var effects = repreparing {
            // SQLite prepared the statement again: the new answers describe what just ran.
            repreparing = nil
            effects.inspect(sql: statement.sql)
            statement.effects = effects
            recordStatementWideEffects(effects)
        }
        let succeeded = result == SQLITE_ROW || result == SQLITE_DONE
        if succeeded {
            log.keepStatement()
        } else if log.statementHasEvents {
            resolveFailedStatement(statement.effects)
        }
        if succeeded, let savepoint = statement.effects?.savepoint { apply(savepoint) }
        if succeeded, statement.effects?.changesSchema == true { factsAreStale = true }
        if commitRequested {
            commitRequested = false
            transactionChangedSchema = false
            // A COMMIT that failed (e.g. SQLITE_BUSY) leaves the transaction open with its events.
            if succeeded { publishCommitted() }
        } else if result == SQLITE_DONE, !log.isEmpty, sqlite3_get_autocommit(connection) != 0 {
            // Finished outside any transaction without a commit hook call: VACUUM.
            publishCommitted()
        }
    }

    /// Marks what a statement changes as a whole, before its rows: the schema, and for the
    /// update hook the `WITHOUT ROWID` tables it writes (the hook is silent for them) and the
    /// tables whose rowids it updates (the hook names only the new rowid).
    private func recordStatementWideEffects(_ effects: StatementEffects) {
        if effects.changesSchema {
            log.recordAllTables()
            transactionChangedSchema = true
        }
        guard source == .updateHook else { return }
        for table in effects.writtenTables where facts.withoutRowIDTables.contains(table) { log.recordWholeTable(table) }
        for (table, columns) in effects.updatedColumns
        where columns.contains("rowid") || facts.rowIDAliases[table].map(columns.contains) == true {
            log.recordWholeTable(table)
        }
    }

    /// Keeps or takes back the events of a statement that failed, as SQLite resolved the failure.
    ///
    /// A failure that ended the transaction (`ROLLBACK`, some I/O errors) went through the
    /// rollback hook, which emptied the log. Otherwise SQLite either undid the statement
    /// (`ABORT`, the default) or kept the rows it changed before the failure (`FAIL`); `IGNORE`
    /// and `REPLACE` do not fail. Only an INSERT, UPDATE or DELETE that names `FAIL`, or writes a
    /// table whose definition or triggers name it, can keep anything (see
    /// `SchemaFacts.mayHaveFailedUnderFail`): any other statement was undone. Otherwise SQLite
    /// itself tells, see `statementKeptItsChanges`.
    private func resolveFailedStatement(_ effects: StatementEffects?) {
        let mayHaveFailedUnderFail = effects.map(facts.mayHaveFailedUnderFail) ?? true
        if mayHaveFailedUnderFail && statementKeptItsChanges(effects) {
            log.keepStatement()
        } else {
            log.undoStatement()
        }
    }

    /// Whether SQLite kept what a statement that failed, and may have failed under `FAIL`, changed.
    ///
    /// `sqlite3_changes64` is set when an INSERT, UPDATE or DELETE ends: to 0 when SQLite undid
    /// it, otherwise to the number of the statement's own rows, each counted as it is changed.
    /// So a positive count means kept; and with none counted, under `FAIL` only what runs before
    /// a statement's first own row can have changed rows: `BEFORE` and `INSTEAD OF` triggers,
    /// and rows deleted by `REPLACE` (with their cascades). Without those the statement was
    /// undone; with the pre-update hook, an own row among the events (in any table, `WITHOUT
    /// ROWID` ones included) proves it too. What remains is asked of the database: a row the
    /// statement inserted or deleted is looked up by rowid (up to 8). Only a statement whose
    /// events none of this decides (`BEFORE` triggers that only updated rows or wrote `WITHOUT
    /// ROWID` tables, with `FAIL`) keeps its rows: a superset, never a loss.
    private func statementKeptItsChanges(_ effects: StatementEffects?) -> Bool {
        if sqlite3_changes64(connection) > 0 { return true }
        guard effects.map(facts.mayChangeRowsBeforeItsOwn) ?? true else { return false }
        if countedOwnRows > 0 { return false }
        let mayReplace = (effects?.mayReplace ?? true) || facts.mayReplace
        for row in log.rowsWhoseExistenceTheStatementChanged(limit: 8) {
            guard let exists = try? rowExists(table: row.table, rowID: row.rowID) else { continue }
            if exists != row.exists { return false }
            // Without the pre-update hook, a row "inserted" may have been there before, replaced silently.
            if source == .preUpdateHook || !row.exists || !mayReplace { return true }
        }
        return true
    }

    private func rowExists(table: String, rowID: Int64) throws -> Bool {
        let name = try database.rowIDName(of: table)
        let sql = "SELECT 1 FROM main.\(SQLIdentifier.quote(table)) WHERE \(name) = ?"
        return try !database.uncapturedRows(sql: sql, arguments: [.integer(rowID)]).isEmpty
    }

    private func apply(_ savepoint: StatementEffects.SavepointOperation) {
        switch savepoint {
        case .begin(let name): log.beginSavepoint(name)
        case .release(let name): log.releaseSavepoint(name)
        case .rollback(let name):
            log.rollbackToSavepoint(name)
            if transactionChangedSchema { factsAreStale = true }
        }
    }

    /// Publishes the committed transaction's changes, if any and if anybody receives them.
    private func publishCommitted() {
        guard isObserved() else { return log.discard() }
        let changes = log.takeCommitted()
        if !changes.isEmpty { publish(database.isApplyingRemoteChanges ? changes.markedRemote() : changes) }
    }

    /// The changes of the open transaction so far, as they would be published if it committed now.
    package func uncommittedChanges() -> StoreChanges { log.folded() }

    /// The generation of the schema facts, loaded again first when a schema change made them stale.
    package func currentFactsGeneration() throws -> Int64 {
        if factsAreStale { try refreshFacts() }
        return factsGeneration
    }

    private func refreshFacts() throws {
        facts = try SchemaFacts.load(from: database)
        factsGeneration += 1
        factsAreStale = false
        hookTable.forget()
    }

    // MARK: Other connections

    /// Publishes an external change when another connection or process committed since the
    /// last check (`PRAGMA data_version`). Must run on the writer, outside a transaction.
    /// Without the write lock, a restarted WAL may be taken for a commit: see `ExternalChangeCheck`.
    func checkDataVersion() throws {
        guard !database.isInsideTransaction else { return }
        try publishExternalChange()
    }

    /// Whether `PRAGMA data_version` moved since the last check, which it does when another
    /// connection or process committed, and not only then (see `ExternalChangeCheck`). Records nothing.
    func dataVersionHasMoved() throws -> Bool {
        try database.fetchValue(Int64.self, sql: "PRAGMA data_version") != dataVersion
    }

    /// Called once a write transaction holds the write lock (`BEGIN IMMEDIATE`) and before
    /// anything runs in it: a commit by another connection or process since the last check is
    /// published now, before this transaction's own changes, and the schema facts are reloaded.
    func transactionDidBegin() throws {
        try publishExternalChange()
    }

    private func publishExternalChange() throws {
        let version = try database.fetchValue(Int64.self, sql: "PRAGMA data_version")
        guard version != dataVersion else { return }
        dataVersion = version
        try refreshFacts()
        publish(StoreChanges(affectsAllTables: true, isExternal: true))
    }

    // MARK: Hook callbacks

    fileprivate func rowChanged(
        operation: Int32, databaseName: UnsafePointer<CChar>?, table: UnsafePointer<CChar>?,
        oldRowID: Int64, newRowID: Int64
    ) {
        guard let databaseName, let table, strcmp(databaseName, "main") == 0 else { return }
        let hooked = hookTable.table(named: table) { name in
            let folded = name.sqliteIdentifierFolded
            let isInternal = StatementEffects.isInternal(name)
            return .init(name: isInternal ? nil : folded, isWithoutRowID: facts.withoutRowIDTables.contains(folded))
        }
        guard let name = hooked.name else { return }
        if preUpdateHook?.isTopLevel(on: connection) == true, operation != SQLITE_DELETE || !runningMayReplace {
            countedOwnRows += 1  // rows deleted by REPLACE are the statement's, but not counted
        }
        if hooked.isWithoutRowID {
            // The hook's rowids mean nothing for a WITHOUT ROWID table.
            log.recordWholeTable(name)
            return
        }
        if source == .updateHook, operation != SQLITE_DELETE, mayReplaceRows {
            // REPLACE may have deleted rows silently to make room for this one.
            log.recordWholeTable(name)
        }
        switch operation {
        case SQLITE_INSERT: log.recordInsert(table: name, rowID: newRowID)
        case SQLITE_DELETE where preUpdateHook?.isBlobWrite(on: connection) == true:
            log.recordUpdate(table: name, rowID: oldRowID)
        case SQLITE_DELETE: log.recordDelete(table: name, rowID: oldRowID)
        case SQLITE_UPDATE where oldRowID != newRowID:
            log.recordDelete(table: name, rowID: oldRowID)
            log.recordInsert(table: name, rowID: newRowID)
        default: log.recordUpdate(table: name, rowID: newRowID)
        }
    }

    /// Whether the running statement, its triggers included, may delete rows through REPLACE
    /// conflict resolution.
    private var mayReplaceRows: Bool { runningMayReplace || facts.mayReplace }

    fileprivate func committing() { commitRequested = true }

    fileprivate func rolledBack() {
        commitRequested = false
        log.discard()
        if transactionChangedSchema { factsAreStale = true }
        transactionChangedSchema = false
    }

    fileprivate func authorize(action: Int32, _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?) -> Int32 {
        guard preparing != nil || isStepping else { return SQLITE_OK }
        let first = first.map { String(cString: $0) }
        let second = second.map { String(cString: $0) }
        if preparing != nil {
            preparing?.authorize(action: action, first, second)
        } else {
            if repreparing == nil { repreparing = StatementEffects() }
            repreparing?.authorize(action: action, first, second)
        }
        return source == .updateHook && action == SQLITE_DELETE ? answerToDelete(of: first) : SQLITE_OK
    }

    /// Answering IGNORE to a DELETE makes SQLite delete row by row, so that the update hook
    /// sees each row. But `DROP TABLE` and `DROP INDEX` ask about deleting from the schema table
    /// and from the dropped table too, and do nothing at all on IGNORE: those are allowed.
    private func answerToDelete(of table: String?) -> Int32 {
        let isDropping = (preparing ?? repreparing)?.changesSchema ?? true
        guard let table, !isDropping, !StatementEffects.isInternal(table) else { return SQLITE_OK }
        return SQLITE_IGNORE
    }

    private func install() throws {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let handle = database.handle
        if let preUpdateHook {
            preUpdateHook.install(
                on: handle,
                { context, _, operation, databaseName, table, oldRowID, newRowID in
                    guard let context else { return }
                    Unmanaged<ChangeCapture>.fromOpaque(context).takeUnretainedValue()
                        .rowChanged(operation: operation, databaseName: databaseName, table: table, oldRowID: oldRowID, newRowID: newRowID)
                }, context: context)
        } else {
            sqlite3_update_hook(
                handle,
                { context, operation, databaseName, table, rowID in
                    guard let context else { return }
                    Unmanaged<ChangeCapture>.fromOpaque(context).takeUnretainedValue()
                        .rowChanged(operation: operation, databaseName: databaseName, table: table, oldRowID: rowID, newRowID: rowID)
                }, context)
        }
        sqlite3_commit_hook(
            handle,
            { context in
                guard let context else { return 0 }
                Unmanaged<ChangeCapture>.fromOpaque(context).takeUnretainedValue().committing()
                return 0
            }, context)
        sqlite3_rollback_hook(
            handle,
            { context in
                guard let context else { return }
                Unmanaged<ChangeCapture>.fromOpaque(context).takeUnretainedValue().rolledBack()
            }, context)
        let code = sqlite3_set_authorizer(
            handle,
            { context, action, first, second, _, _ in
                guard let context else { return SQLITE_OK }
                return Unmanaged<ChangeCapture>.fromOpaque(context).takeUnretainedValue().authorize(action: action, first, second)
            }, context)
        try database.check(code, sql: nil)
    }
}
