/// Merges a batch of remote changes into the store's sync state and its synced tables, in the
/// write transaction that `StoreSync.apply` opens (see <doc:SyncBetweenDevices> for the rule).
///
/// Each change replaces a cell, or a row's tombstone, only when its stamp is greater than the
/// one there: applying a change twice, or an older one after a newer one, changes nothing.
/// The rows the batch touched are then brought to their merged state; those writes are
/// published as remote changes and never recorded in the outbox.
struct SyncApplier {
    let tables: [String: SyncedTable]
    let db: Database
    let clock: HybridClock

    func apply(_ batch: SyncBatch) throws {
        let version = try SyncStorage.schemaVersion(in: db)
        guard batch.schemaVersion == version else { throw StoreError.syncSchemaMismatch(batch: batch.schemaVersion, store: version) }
        if let newest = batch.changes.map(\.timestamp).max() { try clock.observe(newest, in: db) }
        var touched: [(table: SyncedTable, key: DatabaseValue)] = []
        var seen: Set<SyncRowIdentity<DatabaseValue>> = []
        for change in batch.changes {
            guard let table = tables.table(named: change.table) else {
                throw StoreError.syncChangeRefused("change \(change.id) names table \"\(change.table)\", which this store does not sync")
            }
            guard try merge(change, into: table) else { continue }
            if seen.insert(SyncRowIdentity(table: table.name, key: change.key)).inserted { touched.append((table, change.key)) }
        }
        try SyncMaterializer(tables: tables, db: db).materialize(touched)
    }

    /// Merges one change into the sync state; returns whether it won.
    private func merge(_ change: SyncChange, into table: SyncedTable) throws -> Bool {
        switch change.operation {
        case .set(let column, let value):
            guard table.hasColumn(spelled: column) else {
                throw StoreError.syncChangeRefused("change \(change.id) names column \"\(column)\", which \"\(table.name)\" has not")
            }
            let current = try SyncStorage.cells(of: table.name, key: change.key, in: db)[column]?.stamp
            guard current.map({ $0 < change.stamp }) ?? true else { return false }
            try SyncStorage.setCell(table, key: change.key, column: column, .init(value: value, stamp: change.stamp), in: db)
        case .delete:
            let current = try SyncStorage.tombstone(of: table.name, key: change.key, in: db)
            guard current.map({ $0 < change.stamp }) ?? true else { return false }
            try SyncStorage.setTombstone(table, key: change.key, change.stamp, in: db)
        }
        return true
    }
}
