import BenchmarkKit
import SQLiteStoreCore

/// `insert` and `notifyOverhead` with SQLiteStore: `db.insert(&model)` in one `write`; the
/// subscriber is `observeChanges(in:)`, whose `StoreChanges` carry the inserted rowids.
public final class StoreInserter: InsertContender {
    /// Results are labelled `SQLiteStore`.
    public static let library = ContenderLibrary.sqliteStore

    private let store: Store
    private var subscriber: InsertCountingSubscriber?

    /// Opens a `Store` with its default configuration (WAL, `synchronous = NORMAL`).
    public init(databasePath: String) throws {
        store = try Store(path: databasePath)
    }

    /// Inserts each model in one write transaction; with a subscriber, waits until it has
    /// received the transaction's changes (they are delivered on the subscriber's queue).
    public func insert(_ items: inout [Item]) throws {
        try store.write { db in
            for index in items.indices {
                try db.insert(&items[index])
            }
        }
        try subscriber?.waitForDelivery()
    }

    /// Subscribes to the changes of the `item` table.
    public func attachChangeSubscriber() throws {
        subscriber = InsertCountingSubscriber(store: store)
    }

    /// Inserted rowids the subscriber received.
    public var notifiedInsertCount: Int {
        subscriber?.deliveredInsertCount ?? 0
    }
}
