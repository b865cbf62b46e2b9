import Foundation
import SQLiteStoreCore
import Testing

/// Consumers of `changes()`, one by one and coalescing, cancelled while transactions are being
/// published to them: a cancelled task ends its stream while holding its own lock, and the
/// publication must not wait for it while holding the subscribers' lock (a lock-order
/// inversion that hung the sync server's tests). A deadlock fails the test by its time limit.
@Suite(.timeLimit(.minutes(10))) struct CancelledConsumerTests {
    @Test func consumersCancelledDuringPublicationsEndWithoutAHang() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(schema: "CREATE TABLE t(id INTEGER PRIMARY KEY, n INTEGER);")
        let writing = Task.detached {
            var n = 0
            while !Task.isCancelled {
                n += 1
                try store.write { db in try db.execute(sql: "INSERT INTO t(n) VALUES (?)", arguments: [n]) }
            }
        }
        defer { writing.cancel() }
        let cancellations = ProcessInfo.processInfo.environment["CANCELLATIONS"].flatMap { Int($0) } ?? 400
        for round in 0..<cancellations {
            let consumer = Task.detached {
                if round.isMultiple(of: 2) {
                    for await _ in store.changes(in: ["t"]) {}
                } else {
                    for await _ in store.changes(in: ["t"], coalescing: true) {}
                }
            }
            try await Task.sleep(for: .microseconds(Int.random(in: 0...300)))
            consumer.cancel()
            await consumer.value
        }
        writing.cancel()
        _ = try await writing.value
    }
}
