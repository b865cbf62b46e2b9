import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// Applies what sharing tells a device, in the write transaction that applies the rest of a
/// server's answer (see "Sharing" in <doc:SyncBetweenDevices>). Every write is a remote change:
/// published with `isRemote` set and never recorded for sending, so that a row removed here
/// is not deleted on the server.
struct SyncShareApplier {
    let tables: [String: SyncedTable]
    let db: Database
    let clock: HybridClock

    /// Records the share each of `rows` came through.
    func tag(_ rows: [SyncSharedRow]) throws {
        for row in rows {
            guard let table = tables.table(named: row.table) else { continue }
            try SyncStorage.setShare(row.share, of: table.name, key: DatabaseValue(row.key), in: db)
        }
    }

    /// Removes every row that came through `share`, with what the sync state holds of it.
    func remove(share: String) throws {
        try remove(taggedWith: [share, SyncStorage.staleSharePrefix + share])
    }

    /// Removes the rows of `share` that its reading from the start did not bring again: they left it.
    func removeStaleRows(of share: String) throws {
        try remove(taggedWith: [SyncStorage.staleSharePrefix + share])
    }

    private func remove(taggedWith tags: [String]) throws {
        let rows = try SyncStorage.rows(taggedWith: tags, in: db)
        try remove(rows.compactMap { row in tables.table(named: row.table).map { ($0, row.key) } })
    }

    /// Makes each row as `states` say: a state without changes removes the row; another
    /// replaces what the store held of it by the server's state, on which the row's changes
    /// made here and not yet sent are merged again (they win where they are newer). A column
    /// that neither sets takes its default, as on a device that never held the row.
    func replace(_ states: [SyncRowState], device: String) throws {
        var removed: [(SyncedTable, DatabaseValue)] = []
        var replaced: [(SyncedTable, DatabaseValue)] = []
        var changes: [SyncChange] = []
        for state in states {
            guard let table = tables.table(named: state.table) else { continue }
            let key = DatabaseValue(state.key)
            guard !state.changes.isEmpty else {
                removed.append((table, key))
                continue
            }
            try SyncStorage.resetRow(table.name, key: key, share: state.share, in: db)
            changes += state.changes.map(SyncChange.init)
            changes += try SyncStorage.pendingChanges(of: table.name, key: key, device: device, in: db)
            replaced.append((table, key))
        }
        try remove(removed)
        guard !changes.isEmpty else { return }
        try SyncApplier(tables: tables, db: db, clock: clock).apply(
            SyncBatch(schemaVersion: try SyncStorage.schemaVersion(in: db), changes: changes))
        for (table, key) in replaced { try resetUnsetColumns(of: table, key: key) }
    }

    /// Gives the columns of the row that no cell sets their default: a value the store held
    /// of a change the server refused, which the server's state does not hold.
    private func resetUnsetColumns(of table: SyncedTable, key: DatabaseValue) throws {
        let unset = Set(table.columns).subtracting(try SyncStorage.cells(of: table.name, key: key, in: db).keys)
        guard !unset.isEmpty else { return }
        let quotedTable = SQLIdentifier.quote(table.name)
        let defaults = try db.fetchRows(sql: "SELECT name, dflt_value FROM pragma_table_info(?)", arguments: [table.name])
        for row in defaults {
            guard case .text(let column)? = row["name"], unset.contains(column) else { continue }
            // The default as the schema declares it: an expression SQLite evaluates on an insert.
            let value = if case .text(let expression)? = row["dflt_value"] { "(\(expression))" } else { "NULL" }
            try db.execute(
                sql: """
                    UPDATE \(quotedTable) SET \(SQLIdentifier.quote(column)) = \(value)
                    WHERE \(SQLIdentifier.quote(table.key)) = ? AND \(SQLIdentifier.quote(column)) IS NOT \(value)
                    """,
                arguments: [key])
        }
    }

    /// Merges a page of a share's or a subscription's rows, set-based as a snapshot page, each
    /// recorded with its share.
    func merge(_ page: SyncSharedPage) throws {
        if !page.rows.isEmpty {
            guard let coordinator = db.syncCoordinator else { throw StoreError.misuse("sync is not configured") }
            try coordinator.apply(page.snapshotPage(schemaVersion: try SyncStorage.schemaVersion(in: db)), in: db)
        }
        try tag(page.rows.compactMap { row in row.share.map { SyncSharedRow(table: row.table, key: row.key, share: $0) } })
    }

    /// Deletes `rows` from their tables and forgets them, foreign keys checked at the end: the
    /// rows of a share refer to each other in any order.
    ///
    /// The changes made here to a removed row and not sent yet are not sent: the account may not
    /// write the row, and sent after it left, they would make a row of their own in the account's
    /// data, with some of its columns only. They are recorded as refused (``SyncRefusal/Reason/notShared``).
    /// With `keepingUnsent` (a row no subscription covers, which the account may still write),
    /// such a row stays instead, with its changes, until they are sent.
    func remove(_ rows: [(table: SyncedTable, key: DatabaseValue)], keepingUnsent: Bool = false) throws {
        guard !rows.isEmpty else { return }
        try gatherLeavingRows(keepingUnsent: keepingUnsent) { db in
            for (table, key) in rows {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO temp.store_sync_leaving(tbl, pk, rid) VALUES (?, ?, NULL)", arguments: [table.name, key])
            }
        }
        try removeGatheredRows()
    }

    /// Removes as ``remove(_:keepingUnsent:)`` does the rows that `selection` (SQL that selects
    /// a table's name, a key and a rowid or `NULL`) selects with `arguments`.
    func remove(selecting selection: String, arguments: [any DatabaseValueConvertible], keepingUnsent: Bool) throws {
        try gatherLeavingRows(selecting: selection, arguments: arguments, keepingUnsent: keepingUnsent)
        try removeGatheredRows()
    }

    /// Gathers the rows that `selection` (SQL that selects a table's name, a key and a rowid or
    /// `NULL`) selects with `arguments` into `temp.store_sync_leaving` (``SyncStorage/leavingSchema``),
    /// less those with changes not sent yet with `keepingUnsent`; without it, those changes are
    /// refused and the rows leave too.
    func gatherLeavingRows(selecting selection: String, arguments: [any DatabaseValueConvertible], keepingUnsent: Bool) throws {
        try gatherLeavingRows(keepingUnsent: keepingUnsent) { db in
            try db.execute(sql: "INSERT OR IGNORE INTO temp.store_sync_leaving(tbl, pk, rid) " + selection, arguments: arguments)
        }
    }

    /// Fills `temp.store_sync_leaving` with `gather`, then settles the changes not sent yet of
    /// the rows gathered, as ``gatherLeavingRows(selecting:arguments:keepingUnsent:)`` says.
    private func gatherLeavingRows(keepingUnsent: Bool, _ gather: (Database) throws -> Void) throws {
        try db.execute(sql: "DELETE FROM temp.store_sync_leaving")
        try gather(db)
        if keepingUnsent {
            try db.execute(sql: "DELETE FROM temp.store_sync_leaving WHERE (tbl, pk) IN (SELECT tbl, pk FROM store_sync_outbox)")
        } else {
            try refuseUnsentChanges(of: "SELECT tbl, pk FROM temp.store_sync_leaving")
        }
    }

    private func removeGatheredRows() throws {
        try deleteLeavingRowsFromTables()
        try forgetLeavingRows()
    }

    /// The tables of the rows in `temp.store_sync_leaving`, each found by one seek of its key
    /// rather than by reading every row (there may be a hundred thousand, read twice).
    private func leavingTables() throws -> [String] {
        try db.fetchRows(
            sql: """
                WITH RECURSIVE leaving(tbl) AS (
                    SELECT min(tbl) FROM temp.store_sync_leaving
                    UNION ALL SELECT (SELECT min(tbl) FROM temp.store_sync_leaving WHERE tbl > leaving.tbl) FROM leaving
                    WHERE leaving.tbl IS NOT NULL)
                SELECT tbl FROM leaving WHERE tbl IS NOT NULL
                """
        ).compactMap { row in
            if case .text(let name)? = row["tbl"] { name } else { nil }
        }
    }

    /// Deletes the rows in `temp.store_sync_leaving` from their tables, foreign keys checked at
    /// the end: the rows of a share refer to each other in any order. What the sync state holds
    /// of them stays, for ``forgetLeavingRows()``.
    func deleteLeavingRowsFromTables() throws {
        let names = try leavingTables()
        try db.withDeferredForeignKeys {
            for name in names {
                guard let table = tables.table(named: name) else { continue }
                try db.execute(
                    sql: """
                        DELETE FROM \(SQLIdentifier.quote(table.name)) WHERE \(SQLIdentifier.quote(table.key)) IN (
                            SELECT pk FROM temp.store_sync_leaving WHERE tbl = ?1)
                        """,
                    arguments: [name])
            }
        }
    }

    /// Forgets what the sync state holds of the rows in `temp.store_sync_leaving`, and empties it.
    func forgetLeavingRows() throws {
        for name in try leavingTables() {
            for bookkeeping in ["store_sync_cells", "store_sync_rows"] {
                try db.execute(
                    sql: "DELETE FROM \(bookkeeping) WHERE tbl = ?1 AND pk IN (SELECT pk FROM temp.store_sync_leaving WHERE tbl = ?1)",
                    arguments: [name])
            }
        }
        try db.execute(sql: "DELETE FROM store_sync_held WHERE (tbl, pk) IN (SELECT tbl, pk FROM temp.store_sync_leaving)")
        try db.execute(sql: "DELETE FROM temp.store_sync_leaving")
    }

    /// Records as refused, and takes out of the outbox, the changes not sent yet of the rows
    /// `leaving` selects.
    private func refuseUnsentChanges(of leaving: String) throws {
        let device = try SyncStorage.deviceID(in: db) ?? ""
        let unsent = try db.fetchRows(
            sql: """
                SELECT sequence, tbl, pk, col, value, clock FROM store_sync_outbox WHERE (tbl, pk) IN (\(leaving)) ORDER BY sequence
                """
        ).map { try SyncChange(stored: $0, device: device) }
        guard !unsent.isEmpty else { return }
        try db.execute(sql: "DELETE FROM store_sync_outbox WHERE (tbl, pk) IN (\(leaving))")
        try SyncStorage.recordRefusals(
            unsent.map {
                SyncRefusal(
                    device: device, sequence: $0.id.sequence, table: $0.table, key: $0.key.wireValue, column: $0.wire.column,
                    reason: .notShared, message: "not sent: the row left this device, which may no longer hold it")
            }, in: db)
    }
}
