import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// The changes made here that a server refused (see "Sharing between people" in
/// <doc:SyncBetweenDevices>).
extension StoreSync {
    /// The changes made here that a server refused, oldest first: each names its row and the
    /// reason. The rows hold the server's state since; the app may show what was refused.
    public func refusedChanges() throws -> [SyncRefusal] {
        guard store.configuration.sync != nil else { return [] }
        return try store.read { db in try SyncStorage.refusals(in: db) }
    }

    /// Forgets the refusals recorded here, once the app has shown them.
    public func clearRefusedChanges() throws {
        guard store.configuration.sync != nil else { return }
        try store.write { db in try db.execute(sql: "DELETE FROM store_sync_refused") }
    }
}
