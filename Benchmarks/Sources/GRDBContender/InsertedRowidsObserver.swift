import BenchmarkKit
import GRDB
import Synchronization

/// A GRDB `TransactionObserver` that collects the rowids inserted into `item` and delivers them
/// at commit: the same information SQLiteStore publishes for every transaction.
final class InsertedRowidsObserver: TransactionObserver, Sendable {
    private struct State {
        var pendingInserts: [Int64] = []
        var deliveredInsertCount = 0
    }

    private let state = Mutex(State())

    var deliveredInsertCount: Int {
        state.withLock { $0.deliveredInsertCount }
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        eventKind.tableName == BenchmarkSchema.tableName
    }

    func databaseDidChange(with event: DatabaseEvent) {
        guard event.kind == .insert else { return }
        let rowID = event.rowID
        state.withLock { $0.pendingInserts.append(rowID) }
    }

    func databaseDidCommit(_ db: Database) {
        state.withLock { state in
            state.deliveredInsertCount += state.pendingInserts.count
            state.pendingInserts.removeAll(keepingCapacity: true)
        }
    }

    func databaseDidRollback(_ db: Database) {
        state.withLock { $0.pendingInserts.removeAll(keepingCapacity: true) }
    }
}
