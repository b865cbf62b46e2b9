import Dispatch

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// Collects what a store publishes, for a test to read synchronously after its writes.
final class PublishedChanges: Sendable {
    private let queue = DispatchQueue(label: "PublishedChanges")
    private let received = Locked<[StoreChanges]>([])
    private let observation: ChangeObservation

    init(store: Store) {
        let received = received
        self.observation = store.observeChanges(on: queue) { changes in received.withLock { $0.append(changes) } }
    }

    /// Everything published since the collector started, in commit order.
    var all: [StoreChanges] {
        queue.sync {}  // the store hands each publication to the queue before its write returns
        return received.withLock { $0 }
    }
}
