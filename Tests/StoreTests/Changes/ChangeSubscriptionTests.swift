import Dispatch
import Foundation
import SQLiteStoreCore
import Testing

/// Subscribing to changes: sequences, observers, filters, lifetimes.
@Suite(.timeLimit(.minutes(10))) struct ChangeSubscriptionTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: "CREATE TABLE a(id INTEGER PRIMARY KEY, v); CREATE TABLE b(id INTEGER PRIMARY KEY, v);")
    }

    @Test func subscriberGetsOnlyChangesCommittedAfterSubscribing() async throws {
        try await store.write { db in try db.execute(sql: "INSERT INTO a(v) VALUES ('before')") }
        var changes = store.changes().makeAsyncIterator()
        try await store.write { db in try db.execute(sql: "INSERT INTO a(v) VALUES ('after')") }
        #expect(await changes.next()?.changes(in: "a").inserted == [2])
    }

    @Test func filteredSubscriberSkipsTransactionsOnOtherTables() async throws {
        var onlyB = store.changes(in: ["B"]).makeAsyncIterator()
        try await store.write { db in try db.execute(sql: "INSERT INTO a(v) VALUES (1)") }
        try await store.write { db in try db.execute(sql: "INSERT INTO b(v) VALUES (2)") }
        let first = await onlyB.next()
        #expect(first?.tables == ["b"])
    }

    @Test func changesArriveInCommitOrderExactlyOnce() async throws {
        let count = 200
        var changes = store.changes(in: ["a"]).makeAsyncIterator()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<count {
                group.addTask { try await store.write { db in try db.execute(sql: "INSERT INTO a(v) VALUES (0)") } }
            }
            try await group.waitForAll()
        }
        var seen: [Int64] = []
        for _ in 0..<count {
            seen += await changes.next()?.changes(in: "a").inserted.sorted() ?? []
        }
        #expect(seen == Array(1...Int64(count)), "rowids grow with commit order")
    }

    @Test func observerRunsOffTheWriterAndASlowOneDoesNotBlockWrites() async throws {
        let gate = DispatchSemaphore(value: 0)
        let calls = Locked(0)
        let observation = store.observeChanges(in: ["a"]) { _ in
            gate.wait()  // a very slow observer
            calls.withLock { $0 += 1 }
        }
        for value in 0..<5 {
            try await store.write { db in try db.execute(sql: "INSERT INTO a(v) VALUES (?)", arguments: [value]) }
        }
        let count = try await store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM a") }
        #expect(
            count == 5,
            "all writes committed while the observer was stuck")
        for _ in 0..<5 { gate.signal() }
        observation.cancel()
    }

    @Test func releasedObservationStopsDeliveries() async throws {
        let calls = Locked(0)
        let queue = DispatchQueue(label: "observer")
        var observation: ChangeObservation? = store.observeChanges(on: queue) { _ in calls.withLock { $0 += 1 } }
        try await store.write { db in try db.execute(sql: "INSERT INTO a(v) VALUES (1)") }
        queue.sync {}  // let the first delivery run
        observation = nil
        try await store.write { db in try db.execute(sql: "INSERT INTO a(v) VALUES (2)") }
        queue.sync {}
        #expect(observation == nil)
        #expect(calls.withLock { $0 } == 1)
    }
}
