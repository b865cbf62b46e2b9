import Dispatch
import Foundation
import TestSupport
import Testing

@testable import SQLiteStoreCore

/// Coalescing subscriptions: a slow consumer gets the transactions it missed merged into one
/// `StoreChanges` that loses no row and follows each row's history across transactions.
@Suite(.timeLimit(.minutes(10))) struct CoalescedChangesTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: "CREATE TABLE a(id INTEGER PRIMARY KEY, v); CREATE TABLE b(id INTEGER PRIMARY KEY, v);")
    }

    /// Seeded random transactions on few rowids (so rows are inserted, updated, deleted and
    /// inserted again across transactions), and the changes their sum must show: rows absent
    /// before and present after are inserted, present before and absent after deleted,
    /// present in both and written by any transaction updated.
    private func writeRandomTransactions(_ count: Int, using random: inout SeededGenerator) throws -> TableChanges {
        let before = try rowIDs()
        var written: Set<Int64> = []
        for _ in 0..<count {
            try store.write { db in
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let id = Int64.random(in: 1...12, using: &random)
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: try db.execute(sql: "INSERT OR IGNORE INTO a(id, v) VALUES (?, 0)", arguments: [id])
                    case 1: try db.execute(sql: "UPDATE a SET v = v + 1 WHERE id = ?", arguments: [id])
                    case 2: try db.execute(sql: "DELETE FROM a WHERE id = ?", arguments: [id])
                    default: try db.execute(sql: "INSERT OR REPLACE INTO a(id, v) VALUES (?, 7)", arguments: [id])
                    }
                    if db.changesCount > 0 { written.insert(id) }
                }
                try db.execute(sql: "INSERT INTO b(v) VALUES (0)")  // every transaction publishes something
            }
        }
        let after = try rowIDs()
        return TableChanges(
            inserted: after.subtracting(before), updated: before.intersection(after).intersection(written),
            deleted: before.subtracting(after))
    }

    private func rowIDs() throws -> Set<Int64> {
        Set(try store.read { db in try db.fetchRows(sql: "SELECT id FROM a").map { try $0.decode(Int64.self, column: "id") } })
    }

    @Test func aSlowSequenceConsumerGetsEveryMissedTransactionMergedIntoOne() async throws {
        var random = SeededGenerator()
        var changes = store.changes(in: ["a", "b"], coalescing: true).makeAsyncIterator()
        for round in 0..<20 {
            let expected = try writeRandomTransactions(Int.random(in: 1...30, using: &random), using: &random)
            let merged = await changes.next()
            #expect(merged?.changes(in: "a") == expected, "seed \(random.seed), round \(round)")
        }
    }

    @Test func aCoalescingObserverWaitsAtMostOnceAndLosesNoRow() throws {
        var random = SeededGenerator()
        let queue = DispatchQueue(label: "slow observer")
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }  // the observer is busy while everything commits
        let received = Locked<[StoreChanges]>([])
        let observation = store.observeChanges(in: ["a", "b"], on: queue, coalescing: true) { changes in
            received.withLock { $0.append(changes) }
        }
        let expected = try writeRandomTransactions(200, using: &random)
        gate.signal()
        queue.sync {}
        observation.cancel()
        let calls = received.withLock { $0 }
        #expect(calls.count == 1, "200 transactions while busy make one call")
        #expect(calls.first?.changes(in: "a") == expected, "seed \(random.seed)")
        #expect(calls.first?.changes(in: "b").inserted.count == 200)
    }

    @Test func mergingFollowsEachRowAcrossTransactions() {
        func changes(_ inserted: Set<Int64> = [], _ updated: Set<Int64> = [], _ deleted: Set<Int64> = []) -> StoreChanges {
            StoreChanges(tableChanges: ["a": TableChanges(inserted: inserted, updated: updated, deleted: deleted)])
        }
        let cases: [([StoreChanges], TableChanges)] = [
            ([changes([1]), changes([], [1])], TableChanges(inserted: [1])),
            ([changes([], [1]), changes([], [], [1])], TableChanges(deleted: [1])),
            ([changes([1]), changes([], [], [1])], TableChanges()),
            ([changes([], [], [1]), changes([1])], TableChanges(updated: [1])),
            ([changes([], [], [1]), changes([1]), changes([], [], [1])], TableChanges(deleted: [1])),
            ([changes([1]), changes([], [], [1]), changes([1])], TableChanges(inserted: [1])),
        ]
        for (sequence, expected) in cases {
            let pending = PendingChanges(coalescing: true)
            for item in sequence { pending.add(item) }
            #expect(pending.take()?.changes(in: "a") == expected, "\(sequence)")
        }
    }
}
