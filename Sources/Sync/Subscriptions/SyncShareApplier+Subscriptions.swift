import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// Applies what subscriptions tell a device: the rows they cover, and those that leave it.
extension SyncShareApplier {
    /// Makes each row as `states` say for a store with subscriptions: a row some subscription
    /// covers takes the server's changes by the merge rule and records its share and its
    /// subscriptions; a row none covers leaves the store, as a remote delete that is never sent,
    /// unless it has changes made here and not sent yet (it stays until they are, and a later
    /// pull, which brings the row again, removes it then). States without subscriptions (a row
    /// the account may not read, a refused row) are replaced as ``replace(_:device:)`` does.
    func place(_ states: [SyncRowState], device: String) throws {
        var changes: [SyncChange] = []
        var leaving: [(SyncedTable, DatabaseValue)] = []
        var replaced: [SyncRowState] = []
        let held = states.contains { $0.subscriptions != nil } ? Set(try SyncStorage.subscriptions(in: db).map(\.id)) : []
        for state in states {
            guard var covering = state.subscriptions else {
                replaced.append(state)
                continue
            }
            // A subscription ended while the pull was under way covers nothing.
            covering.removeAll { !held.contains($0) }
            guard let table = tables.table(named: state.table) else { continue }
            let key = DatabaseValue(state.key)
            if covering.isEmpty {
                // Covered by none; with changes not sent yet, it stays so until they are.
                try SyncStorage.setCoverage([], of: table.name, key: key, in: db)
                leaving.append((table, key))
                continue
            }
            changes += state.changes.map(SyncChange.init)
            try SyncStorage.setShare(state.share, of: table.name, key: key, in: db)
            try SyncStorage.setCoverage(covering, of: table.name, key: key, in: db)
        }
        if !changes.isEmpty {
            try SyncApplier(tables: tables, db: db, clock: clock).apply(
                SyncBatch(schemaVersion: try SyncStorage.schemaVersion(in: db), changes: changes))
        }
        try remove(leaving, keepingUnsent: true)
        try replace(replaced, device: device)
    }

    /// Merges a page of subscription `id`'s rows, each recorded with its share and as covered by it.
    func merge(_ page: SyncSharedPage, subscription id: Int64) throws {
        try merge(page)
        for row in page.rows {
            guard let table = tables.table(named: row.table) else { continue }
            try SyncStorage.addCoverage(id, of: table.name, key: DatabaseValue(row.key), in: db)
        }
    }

    /// Ends subscription `id` in the rows it covers: those it alone covers leave the store,
    /// except those with changes made here and not sent yet (they stay until they are).
    func endSubscription(_ id: Int64) throws {
        let tag = " \(id) "
        try remove(
            selecting: "SELECT tbl, pk FROM store_sync_rows WHERE instr(subscriptions, ?1) > 0 AND replace(subscriptions, ?1, '') = ''",
            arguments: [tag], keepingUnsent: true)
        try db.execute(
            sql: "UPDATE store_sync_rows SET subscriptions = replace(subscriptions, ?1, '') WHERE instr(subscriptions, ?1) > 0",
            arguments: [tag])
    }

    /// Removes the rows no subscription covers, except those with changes made here and not sent
    /// yet (they stay until they are).
    func removeUncoveredRows() throws {
        try remove(selecting: "SELECT tbl, pk FROM store_sync_rows WHERE subscriptions = ''", arguments: [], keepingUnsent: true)
    }
}
