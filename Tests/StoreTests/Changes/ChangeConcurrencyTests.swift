import Foundation
import SQLiteStoreCore
import Testing

/// Several writers, readers and subscribers at once: every subscriber sees every commit
/// exactly once, in one order, while readers read. Run under `--sanitize=thread` too.
@Suite(.timeLimit(.minutes(10))) struct ChangeConcurrencyTests {
    @Test func writersReadersAndSubscribersTogether() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(schema: "CREATE TABLE t(id INTEGER PRIMARY KEY, writer INTEGER, n INTEGER);")
        let writers = 4
        let writesPerWriter = 50
        let total = writers * writesPerWriter
        let streams = (0..<3).map { _ in store.changes(in: ["t"]) }
        let observed = Locked<[Int64]>([])
        let observation = store.observeChanges(in: ["t"]) { changes in
            observed.withLock { $0 += changes.changes(in: "t").inserted.sorted() }
        }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for n in 0..<writesPerWriter {
                        try await store.write { db in
                            try db.execute(sql: "INSERT INTO t(writer, n) VALUES (?, ?)", arguments: [writer, n])
                        }
                    }
                }
            }
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<50 {
                        let count = try await store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM t") } ?? 0
                        #expect((0...total).contains(count))
                    }
                }
            }
            try await group.waitForAll()
        }

        for stream in streams {
            var seen: [Int64] = []
            for await changes in stream {
                seen += changes.changes(in: "t").inserted.sorted()
                if seen.count >= total { break }
            }
            #expect(seen == Array(1...Int64(total)), "each subscriber sees every insert once, in commit order")
        }
        for _ in 0..<1_000 where observed.withLock({ $0.count }) < total { try await Task.sleep(for: .milliseconds(5)) }
        #expect(observed.withLock { $0 } == Array(1...Int64(total)))
        observation.cancel()
    }
}
