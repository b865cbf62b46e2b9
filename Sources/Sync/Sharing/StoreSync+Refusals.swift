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

    /// The changes made here that a server refuses from now on, each once the transaction that
    /// recorded it (and gave its row the server's state) has committed: for an app that shows
    /// them as they happen. ``refusedChanges()`` lists those recorded before.
    ///
    /// ```swift
    /// let refusals = store.sync.refusals()
    /// for await refusal in refusals {
    ///     print("not saved: \(refusal.table) \(refusal.key): \(refusal.message)")
    /// }
    /// ```
    public func refusals() -> AsyncStream<SyncRefusal> {
        guard let sync = store.configuration.sync else { return AsyncStream { $0.finish() } }
        return sync.refusalFeed.stream()
    }

    /// Forgets the refusals recorded here, once the app has shown them.
    public func clearRefusedChanges() throws {
        guard store.configuration.sync != nil else { return }
        try store.write { db in try db.execute(sql: "DELETE FROM store_sync_refused") }
    }
}
