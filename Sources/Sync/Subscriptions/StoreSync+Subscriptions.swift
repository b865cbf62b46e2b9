import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// Subscriptions: syncing only the parts of the data a device asks for (see "Subscriptions" in
/// <doc:SyncBetweenDevices>).
extension StoreSync {
    /// A subscription of this store to one of the subsets its server declares.
    public struct Subscription: Sendable, Hashable, Identifiable {
        /// The store's number for it.
        public let id: Int64
        /// The subset's name on the server.
        public let name: String
        /// The subset's parameter (a root row's key, a column's value), if it takes one.
        public let parameter: DatabaseValue?
        /// Its priority: on a store that reads several, the higher ones are read first.
        public let priority: Int
        /// How many rows reading it brought so far.
        public let rowsRead: Int
        /// Whether its rows are all read: from then on, they stay up to date with each sync.
        public let isComplete: Bool
    }

    /// Subscribes this store to the server's subset `name` with `parameter`, or changes the
    /// priority of that subscription; returns it. The next sync reads its rows, the
    /// subscriptions of higher `priority` first.
    ///
    /// A store without subscriptions syncs its account's whole data. With its first
    /// subscription, it holds only the rows its subscriptions cover: once they are read, the
    /// rows none covers leave the store as remote deletes, which are never sent (a row with
    /// changes not sent yet stays until they are).
    ///
    /// - Throws: `StoreError.misuse` when sync is not configured. The server refuses a name it
    ///   does not declare when the store syncs (``SyncServerError`` with reason `.malformed`).
    @discardableResult
    public func subscribe(to name: String, parameter: DatabaseValue? = nil, priority: Int = 0) throws -> Subscription {
        try checkConfigured()
        return try store.write { db in
            let parameter = parameter == .null ? nil : parameter
            if let id = try db.fetchValue(
                Int64.self, sql: "SELECT id FROM store_sync_subscriptions WHERE name = ? AND parameter IS ?",
                arguments: [name, parameter ?? DatabaseValue.null])
            {
                try db.execute(sql: "UPDATE store_sync_subscriptions SET priority = ? WHERE id = ?", arguments: [Int64(priority), id])
            } else {
                let first = try SyncStorage.subscriptions(in: db).isEmpty
                try db.execute(
                    sql: "INSERT INTO store_sync_subscriptions(name, parameter, priority, reading) VALUES (?, ?, ?, '')",
                    arguments: [name, parameter ?? DatabaseValue.null, Int64(priority)])
                // The first one: what the store holds of its account's whole data leaves it, but what the subscription covers.
                if first { try SyncStorage.readSubscriptionsAgain(sweeping: true, in: db) }
            }
            guard let subscription = try SyncStorage.subscriptions(in: db).first(where: { $0.name == name && $0.parameter == parameter })
            else { throw StoreError.misuse("sync: the subscription to \(name) was not recorded") }
            return subscription
        }
    }

    /// This store's subscriptions, highest priority first, each with how far its rows were read.
    public func subscriptions() throws -> [Subscription] {
        guard store.configuration.sync != nil else { return [] }
        return try store.read { db in try SyncStorage.subscriptions(in: db) }
    }

    /// Ends a subscription, here only: the rows no other subscription covers leave the store at
    /// once, as remote deletes that are never sent, without a request to the server (a row with
    /// changes not sent yet stays until they are). Ending the last one makes the store sync its
    /// account's whole data again: its next sync reads the server's snapshot.
    ///
    /// The rows leave in one commit, which every reader and live result sees; the sync state
    /// forgets them in a second transaction before the call returns. A large subscription takes
    /// a while (100,000 rows: about 0.7 s until they leave, 1.4 s until the call returns): from
    /// the main actor, prefer the `async` form.
    public func unsubscribe(_ subscription: Subscription.ID) throws {
        try checkConfigured()
        try store.write(
            { db in try Self.endSubscription(subscription, in: db) },
            then: { evicting, db in try Self.forgetEvictedRows(evicting, of: subscription, in: db) })
    }

    /// ``unsubscribe(_:)-1svtp`` without blocking the caller's thread. Cancelling the calling task
    /// before the rows leave ends nothing; once they have, the call finishes.
    public func unsubscribe(_ subscription: Subscription.ID) async throws {
        try checkConfigured()
        try await store.write(
            { db in try Self.endSubscription(subscription, in: db) },
            then: { evicting, db in try Self.forgetEvictedRows(evicting, of: subscription, in: db) })
    }

    /// The first transaction of `unsubscribe(_:)`: forgets the subscription and removes the
    /// rows it alone covered from their tables; returns whether it did (other subscriptions
    /// remain), or the store is to sync its account's whole data again.
    private static func endSubscription(_ subscription: Subscription.ID, in db: Database) throws -> Bool {
        guard let coordinator = db.syncCoordinator else { throw notConfigured }
        let sharing = try coordinator.sharing(in: db)
        try sharing.finishInterruptedEviction()
        try db.execute(sql: "DELETE FROM store_sync_subscriptions WHERE id = ?", arguments: [subscription])
        guard try SyncStorage.subscriptions(in: db).isEmpty else {
            try sharing.evictSubscription(subscription)
            return true
        }
        try SyncStorage.forgetCoverage(in: db)
        try SyncStorage.forgetServerProgress(in: db)
        return false
    }

    /// The second transaction of `unsubscribe(_:)`: forgets what the sync state holds of the rows that left.
    private static func forgetEvictedRows(_ evicting: Bool, of subscription: Subscription.ID, in db: Database) throws {
        guard evicting, let coordinator = db.syncCoordinator else { return }
        try coordinator.sharing(in: db).forgetEvictedRows(of: subscription)
    }
}
