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
        let rows = try SyncStorage.rows(of: share, in: db)
        try remove(rows.compactMap { row in tables.table(named: row.table).map { ($0, row.key) } })
    }

    /// Makes each row as `states` say: a state without changes removes the row; another
    /// replaces what the store held of it by the server's state, on which the row's changes
    /// made here and not yet sent are merged again (they win where they are newer).
    func replace(_ states: [SyncRowState], device: String) throws {
        var removed: [(SyncedTable, DatabaseValue)] = []
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
        }
        try remove(removed)
        guard !changes.isEmpty else { return }
        try SyncApplier(tables: tables, db: db, clock: clock).apply(
            SyncBatch(schemaVersion: try SyncStorage.schemaVersion(in: db), changes: changes))
    }

    /// Merges a page of a share's rows, each recorded as that share's.
    func merge(_ page: SyncSharedPage) throws {
        let changes = page.rows.flatMap { $0.changes.map(SyncChange.init) }
        if !changes.isEmpty {
            try SyncApplier(tables: tables, db: db, clock: clock).apply(
                SyncBatch(schemaVersion: try SyncStorage.schemaVersion(in: db), changes: changes))
        }
        try tag(page.rows.compactMap { row in row.share.map { SyncSharedRow(table: row.table, key: row.key, share: $0) } })
    }

    /// Deletes `rows` from their tables and forgets them, foreign keys checked at the end: the
    /// rows of a share refer to each other in any order.
    private func remove(_ rows: [(table: SyncedTable, key: DatabaseValue)]) throws {
        guard !rows.isEmpty else { return }
        try db.withDeferredForeignKeys {
            for (table, key) in rows {
                try db.execute(
                    sql: "DELETE FROM \(SQLIdentifier.quote(table.name)) WHERE \(SQLIdentifier.quote(table.key)) = ?", arguments: [key])
                try SyncStorage.forgetRow(table.name, key: key, in: db)
            }
        }
    }
}
