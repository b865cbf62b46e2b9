import BenchmarkKit
import Dispatch
import SQLiteStoreCore
import Synchronization

/// A subscription to the `item` table that counts the inserted rowids of each delivered
/// `StoreChanges`; cancelled when released.
final class InsertCountingSubscriber {
    private let deliveries = DeliveryCounter()
    private let observation: ChangeObservation

    init(store: Store) {
        observation = store.observeChanges(in: [BenchmarkSchema.tableName]) { [deliveries] changes in
            deliveries.record(insertCount: changes.changes(in: BenchmarkSchema.tableName).inserted.count)
        }
    }

    var deliveredInsertCount: Int {
        deliveries.insertCount
    }

    /// Blocks until the next delivery; a minute without one fails the benchmark instead of
    /// hanging the suite.
    func waitForDelivery() throws {
        guard deliveries.waitForNext(timeout: .now() + .seconds(60)) else {
            throw MissingDeliveryError()
        }
    }
}

/// What the subscriber received, shared with the queue that delivers to it.
private final class DeliveryCounter: Sendable {
    private let insertTotal = Mutex(0)
    private let delivered = DispatchSemaphore(value: 0)

    var insertCount: Int {
        insertTotal.withLock { $0 }
    }

    func record(insertCount: Int) {
        insertTotal.withLock { $0 += insertCount }
        delivered.signal()
    }

    func waitForNext(timeout: DispatchTime) -> Bool {
        delivered.wait(timeout: timeout) == .success
    }
}

/// The subscriber received no changes for a committed transaction.
private struct MissingDeliveryError: Error, CustomStringConvertible {
    var description: String { "the change subscriber received nothing within a minute of the commit" }
}
