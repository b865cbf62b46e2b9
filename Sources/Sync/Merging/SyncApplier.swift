import SQLiteStoreCore

/// Merges a batch of remote changes into the store's sync state and its synced tables, in the
/// write transaction that `StoreSync.apply` opens (see <doc:SyncBetweenDevices> for the rule).
///
/// Each change replaces a cell, or a row's tombstone, only when its stamp is greater than the
/// one there: applying a change twice, or an older one after a newer one, changes nothing.
/// The rows the batch touched are then brought to their merged state; those writes are
/// published as remote changes and never recorded in the outbox.
///
/// No change can stop the batch, or a later one: a change that names a table or column not
/// synced here is held (``SyncHeldChange``); when the batch cannot be applied whole (a row
/// breaks a constraint no merge resolves), it is applied row by row, each row's changes in a
/// savepoint, and the changes of a row that fails are held, the row left as it was. Held
/// changes are tried again, first, with every later batch.
struct SyncApplier {
    let tables: [String: SyncedTable]
    let db: Database
    let clock: HybridClock

    func apply(_ batch: SyncBatch) throws {
        let held = try SyncStorage.heldChanges(in: db)
        guard !batch.changes.isEmpty || !held.isEmpty else { return }
        let version = try SyncStorage.schemaVersion(in: db)
        guard batch.schemaVersion == version else { throw StoreError.syncSchemaMismatch(batch: batch.schemaVersion, store: version) }
        if let newest = batch.changes.map(\.timestamp).max() { try clock.observe(newest, in: db) }
        let changes = held.map(\.change) + batch.changes
        do {
            let refused = try db.transaction { try merge(changes) }
            if !held.isEmpty || !refused.isEmpty { try SyncStorage.replaceHeldChanges(with: refused, in: db) }
        } catch let error as StoreError where error.isAboutRemoteData {
            try mergeRowByRow(changes)
        }
    }

    /// Merges `changes` one row at a time, each row's in a savepoint, and holds the changes of
    /// the rows that fail.
    private func mergeRowByRow(_ changes: [SyncChange]) throws {
        var order: [SyncRowIdentity<DatabaseValue>] = []
        var rows: [SyncRowIdentity<DatabaseValue>: [SyncChange]] = [:]
        for change in changes {
            let row = SyncRowIdentity(table: change.table, key: change.key)
            if rows[row] == nil { order.append(row) }
            rows[row, default: []].append(change)
        }
        var held: [SyncHeldChange] = []
        for row in order {
            let changes = rows[row] ?? []
            do {
                held += try db.transaction { try merge(changes) }
            } catch let error as StoreError where error.isAboutRemoteData {
                held += changes.map { SyncHeldChange(change: $0, error: error) }
            }
        }
        try SyncStorage.replaceHeldChanges(with: held, in: db)
    }

    /// Merges `changes` into the sync state, then brings the rows they touched to their merged
    /// state; returns, held, the changes that name a table or column this store does not sync,
    /// merged nowhere.
    private func merge(_ changes: [SyncChange]) throws -> [SyncHeldChange] {
        var touched: [(table: SyncedTable, key: DatabaseValue)] = []
        var seen: Set<SyncRowIdentity<DatabaseValue>> = []
        var refused: [SyncHeldChange] = []
        for change in changes {
            guard let table = tables.table(named: change.table) else {
                let error = StoreError.syncChangeRefused(
                    "change \(change.id) names table \"\(change.table)\", which this store does not sync")
                refused.append(SyncHeldChange(change: change, error: error))
                continue
            }
            if case .set(let column, _) = change.operation, !table.hasColumn(spelled: column) {
                let error = StoreError.syncChangeRefused("change \(change.id) names column \"\(column)\", which \"\(table.name)\" has not")
                refused.append(SyncHeldChange(change: change, error: error))
                continue
            }
            guard try merge(change, into: table) else { continue }
            if seen.insert(SyncRowIdentity(table: table.name, key: change.key)).inserted { touched.append((table, change.key)) }
        }
        try SyncMaterializer(tables: tables, db: db).materialize(touched)
        return refused
    }

    /// Merges one change into the sync state; returns whether it won.
    private func merge(_ change: SyncChange, into table: SyncedTable) throws -> Bool {
        switch change.operation {
        case .set(let column, let value):
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
