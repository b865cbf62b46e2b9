import BenchmarkKit
import GRDB

/// `insert` and `notifyOverhead` with GRDB: `insert(_:)` of Codable records in one `write`;
/// the subscriber is a `TransactionObserver` collecting inserted rowids until commit.
public final class GRDBInserter: InsertContender {
    /// Results are labelled `GRDB`.
    public static let library = ContenderLibrary.grdb

    private let pool: DatabasePool
    private var subscriber: InsertedRowidsObserver?

    /// Opens a `DatabasePool`.
    public init(databasePath: String) throws {
        pool = try GRDBDatabase.openPool(atPath: databasePath)
    }

    /// Inserts each record in one write transaction; `didInsert` stores the ids.
    public func insert(_ items: inout [Item]) throws {
        try pool.write { db in
            for index in items.indices {
                try items[index].insert(db)
            }
        }
    }

    /// Adds the observer for the pool's lifetime.
    public func attachChangeSubscriber() throws {
        let subscriber = InsertedRowidsObserver()
        pool.add(transactionObserver: subscriber, extent: .observerLifetime)
        self.subscriber = subscriber
    }

    /// Rowids the observer received at commits.
    public var notifiedInsertCount: Int {
        subscriber?.deliveredInsertCount ?? 0
    }
}
