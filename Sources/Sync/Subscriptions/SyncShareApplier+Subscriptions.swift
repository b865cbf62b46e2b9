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

    /// Ends subscription `id` in the rows it covers, the first of two transactions: the rows it
    /// alone covers leave their tables, except those with changes made here and not sent yet
    /// (they stay until they are). What the sync state holds of them, and of the subscription
    /// in the rows others cover too, stays for ``forgetEvictedRows(of:)``, which the next
    /// transaction of the same writer turn runs (``Store/write(_:then:)``): the rows leave every
    /// reader, and live results, a transaction sooner. The store notes the eviction under way,
    /// and finishes it when it opens if it stopped between the two
    /// (``finishInterruptedEviction()``).
    func evictSubscription(_ id: Int64) throws {
        try gatherLeavingRows(
            selecting: """
                SELECT tbl, pk, rid FROM store_sync_rows WHERE instr(subscriptions, ?1) > 0 AND replace(subscriptions, ?1, '') = ''
                """,
            arguments: [Self.tag(id)], keepingUnsent: true)
        try deleteLeavingRowsFromTables()
        // Listed for the next transaction, which forgets them: until then their rowids are theirs.
        db.syncCoordinator?.forgetsEvictedRowsNext = true
        try SyncStorage.setMeta(Self.evictionKey, .integer(id), in: db)
    }

    /// Forgets what the sync state holds of the rows ``evictSubscription(_:)`` removed, and of
    /// subscription `id` in the rows that others cover too.
    func forgetEvictedRows(of id: Int64) throws {
        try forgetLeavingRows()
        try endCoverage(by: id)
    }

    /// Finishes an eviction that ``evictSubscription(_:)`` began and whose second transaction
    /// never ran (the app stopped between the two, or the second failed): gathers its rows
    /// again, which have left their tables already, and forgets them.
    func finishInterruptedEviction() throws {
        guard case .integer(let id)? = try SyncStorage.meta(Self.evictionKey, in: db) else { return }
        try evictSubscription(id)
        try forgetEvictedRows(of: id)
    }

    /// Takes subscription `id` off the rows that others cover too, and the note of its eviction.
    private func endCoverage(by id: Int64) throws {
        try db.execute(
            sql: "UPDATE store_sync_rows SET subscriptions = replace(subscriptions, ?1, '') WHERE instr(subscriptions, ?1) > 0",
            arguments: [Self.tag(id)])
        try SyncStorage.deleteMeta(Self.evictionKey, in: db)
    }

    /// The `store_sync_meta` key of an eviction under way: the subscription's id.
    private static let evictionKey = "eviction"

    /// How `store_sync_rows.subscriptions` spells subscription `id`.
    private static func tag(_ id: Int64) -> String { " \(id) " }

    /// Removes the rows no subscription covers, except those with changes made here and not sent
    /// yet (they stay until they are).
    func removeUncoveredRows() throws {
        try remove(selecting: "SELECT tbl, pk, rid FROM store_sync_rows WHERE subscriptions = ''", arguments: [], keepingUnsent: true)
    }
}
