import Foundation
import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// Reading the rows of a store's subscriptions (see "Subscriptions" in <doc:SyncBetweenDevices>).
extension SyncClient {
    /// Reads the rows of the subscriptions not read whole yet, highest priority first, a page per
    /// transaction, each page noting how far its reading went; returns the rows read.
    ///
    /// The first page read on a store without a cursor gives the cursor its pulls start from:
    /// the server's, read with the page, so that every change after it reaches the store by the
    /// pulls, and every row before it by the pages. A subscription the server refuses with
    /// `forbidden` (a root the account may not read) is read whole: it covers nothing now. Once
    /// every subscription is read, the rows that none covers leave the store, when a first
    /// subscription or a reading from the start asked for it.
    func readSubscriptions(cursorKey: String, schemaKey: String, schemaVersion: Int64) async throws -> Int {
        let (reading, sweeping) = try await store.read { db in
            (try SyncStorage.subscriptionsBeingRead(in: db), try SyncStorage.isSweepPending(in: db))
        }
        // Every pull passes here: with nothing to read or remove, it opens no write transaction.
        guard !reading.isEmpty || sweeping else { return 0 }
        var received = 0
        for (subscription, start) in reading {
            var position = start
            while true {
                try Task.checkCancellation()
                var page: SyncSharedPage?
                do {
                    page = try await endpoints.subscribedPage(subscription, schemaVersion: schemaVersion, after: position, limit: batchSize)
                } catch let error as SyncServerError where error.reason == .forbidden {
                    page = nil
                }
                let done = try await applying { [page] db in
                    guard let coordinator = db.syncCoordinator else { throw StoreError.misuse("sync is not configured") }
                    // Ended meanwhile: nothing of it is read.
                    guard try SyncStorage.subscriptions(in: db).contains(where: { $0.id == subscription.id }) else { return true }
                    guard let page else {
                        try SyncStorage.setSubscriptionReading(subscription.id, reached: nil, rows: 0, in: db)
                        return true
                    }
                    if try SyncStorage.meta(cursorKey, in: db) == nil, let cursor = page.cursor {
                        try SyncStorage.setMeta(cursorKey, .integer(cursor), in: db)
                        try SyncStorage.setMeta(schemaKey, .integer(schemaVersion), in: db)
                    }
                    try coordinator.sharing(in: db).merge(page, subscription: subscription.id)
                    try SyncStorage.setSubscriptionReading(subscription.id, reached: page.next, rows: page.rows.count, in: db)
                    return page.next == nil
                }
                received += page?.rows.count ?? 0
                guard !done, let next = page?.next else { break }
                position = next
            }
        }
        try await applying { db in
            guard let coordinator = db.syncCoordinator else { throw StoreError.misuse("sync is not configured") }
            // One subscribed to meanwhile is read at the next pull, before anything leaves.
            guard try SyncStorage.subscriptionsBeingRead(in: db).isEmpty else { return }
            if try SyncStorage.meta(cursorKey, in: db) == nil {
                // No page read (every subscription refused): the pulls start from the beginning.
                try SyncStorage.setMeta(cursorKey, .integer(0), in: db)
                try SyncStorage.setMeta(schemaKey, .integer(schemaVersion), in: db)
            }
            guard try SyncStorage.isSweepPending(in: db) else { return }
            try coordinator.sharing(in: db).removeUncoveredRows()
            try SyncStorage.clearSweep(in: db)
        }
        return received
    }
}
