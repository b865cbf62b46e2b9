import SQLiteStoreCore

/// A store's sync: the changes recorded here and waiting to be sent, and applying the changes
/// of other devices (see <doc:SyncBetweenDevices>). Reached through `Store.sync`.
public struct StoreSync: Sendable {
    let store: Store

    /// This device's id, made at random when sync first opened the database and kept in it.
    public func deviceID() throws -> String {
        try checkConfigured()
        return try store.read { db in
            guard let device = try SyncStorage.deviceID(in: db) else { throw Self.notConfigured }
            return device
        }
    }

    /// The oldest changes recorded here and not yet acknowledged, up to `limit`, all made under
    /// one schema version (a migration in between starts a new batch).
    public func pendingChanges(limit: Int = 1_000) throws -> SyncBatch {
        try checkConfigured()
        return try store.read { db in
            guard let device = try SyncStorage.deviceID(in: db) else { throw Self.notConfigured }
            let rows = try db.fetchRows(
                sql: "SELECT sequence, schema_version, tbl, pk, col, value, clock FROM store_sync_outbox ORDER BY sequence LIMIT ?",
                arguments: [max(0, limit)])
            let version = try rows.first?.decode(Int64.self, column: "schema_version") ?? SyncStorage.schemaVersion(in: db)
            var changes: [SyncChange] = []
            for row in rows {
                guard try row.decode(Int64.self, column: "schema_version") == version else { break }
                changes.append(try SyncChange(stored: row, device: device))
            }
            return SyncBatch(schemaVersion: version, changes: changes)
        }
    }

    /// Gives this database a new device id, and returns it: for a copy of another device's
    /// database (a restored backup, a copied file), which the server or ``SyncClient`` refused
    /// with `forkedDevice`. ``SyncClient`` calls it on such a refusal.
    ///
    /// The changes waiting to be sent go as the new device's, with the cells and deletes they
    /// set here stamped so. The store forgets how far it read each server, so that its next
    /// sync reads the server's snapshot: as the new device, it receives the changes the original
    /// made under the old id, which a device never pulls as its own. Nothing recorded is lost.
    public func takeNewDeviceID() throws -> String {
        try checkConfigured()
        return try store.write { db in
            guard let coordinator = db.syncCoordinator else { throw Self.notConfigured }
            return try coordinator.takeNewDeviceID(in: db)
        }
    }

    /// Forgets the changes recorded here up to `id` included, once the server has stored them.
    public func acknowledge(upTo id: SyncChange.ID) throws {
        try checkConfigured()
        try store.write { db in
            guard try SyncStorage.deviceID(in: db) == id.device else {
                throw StoreError.misuse("sync: change \(id) was not made on this device")
            }
            try db.execute(sql: "DELETE FROM store_sync_outbox WHERE sequence <= ?", arguments: [id.sequence])
        }
    }

    /// Applies other devices' changes in one write transaction, by the merge rule: changes
    /// already applied and changes older than what the store holds change nothing. What the
    /// batch changes is published as `StoreChanges` with `isRemote` set, and not recorded
    /// for sending. The changes held from earlier batches are tried again first.
    ///
    /// A change that cannot be applied here (its row breaks a `UNIQUE` or `CHECK` constraint
    /// that no merge resolves, or it names a table or column this store does not sync) is held,
    /// its row left as it was, and the rest of the batch applied: see ``SyncHeldChange`` and
    /// ``heldChanges()``.
    ///
    /// - Throws: `StoreError` when the batch's schema version is not the store's (nothing is
    ///   applied then), or the database fails (busy, full, I/O).
    public func apply(_ batch: SyncBatch) throws {
        try checkConfigured()
        try store.write { db in
            guard let coordinator = db.syncCoordinator else { throw Self.notConfigured }
            try coordinator.apply(batch, in: db)
        }
    }

    /// The other devices' changes that could not be applied here yet, in the order they came,
    /// each with the error it last met; empty when every change applied.
    public func heldChanges() throws -> [SyncHeldChange] {
        try checkConfigured()
        return try store.read { db in try SyncStorage.heldChanges(in: db) }
    }

    /// Writes every row that the sync state keeps whole (one stamp and an image of its values,
    /// as a new device's snapshot leaves its rows) out into cells, one per column: the one form
    /// of the state that tests compare across devices, cell by cell. What the state means, and
    /// what syncs, does not change.
    @_spi(Testing) public func expandRowImages() throws {
        try checkConfigured()
        try store.write { db in
            guard let coordinator = db.syncCoordinator else { throw Self.notConfigured }
            for table in try coordinator.syncedTables(in: db).values { try SyncStorage.expandImages(of: table, in: db) }
        }
    }

    func checkConfigured() throws {
        guard store.configuration.sync != nil else { throw Self.notConfigured }
    }

    static var notConfigured: StoreError {
        StoreError.misuse("sync is not configured: set StoreConfiguration.sync when opening the store")
    }

}

extension Store {
    /// The store's sync; its methods throw unless `StoreConfiguration.sync` is set.
    public var sync: StoreSync { StoreSync(store: self) }
}
