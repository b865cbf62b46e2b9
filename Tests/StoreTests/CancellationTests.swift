import Foundation
import SQLiteStoreCore
import Testing

/// Async store jobs honour task cancellation: the statement stops, the transaction rolls
/// back, and the job throws `CancellationError`.
@Suite("Cancellation", .timeLimit(.minutes(10)))
struct CancellationTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Item.schema)
    }

    /// A statement that runs for many seconds unless interrupted: 10 million rows.
    static let longInsert = """
        WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 10000000)
        INSERT INTO item(title) SELECT 'row ' || x FROM n
        """

    @Test("Cancelling a running write interrupts it, rolls back and throws CancellationError")
    func cancelRunningWrite() async throws {
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let task = Task { [store] in
            try await store.write { db in
                try db.execute(sql: "INSERT INTO item(title) VALUES ('before the long statement')")
                startedContinuation.yield()
                try db.execute(sql: Self.longInsert)
            }
        }
        for await _ in started { break }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await store.read { db in try db.count("item") } == 0)
        try await store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('after')") }
        #expect(try await store.read { db in try db.count("item") } == 1)
    }

    @Test("A cancellation that lands between statements still stops the next long statement")
    func cancelBetweenStatements() async throws {
        let cancelled = Locked(false)
        let finishedLongStatement = Locked(false)
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let task = Task { [store] in
            try await store.write { db in
                try db.execute(sql: "INSERT INTO item(title) VALUES ('first')")
                startedContinuation.yield()
                while !cancelled.current { usleep(1_000) }  // no statement runs while the task is cancelled
                try db.execute(sql: Self.longInsert)
                finishedLongStatement.withLock { $0 = true }
            }
        }
        for await _ in started { break }
        task.cancel()
        cancelled.withLock { $0 = true }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!finishedLongStatement.current)
        #expect(try await store.read { db in try db.count("item") } == 0)
    }

    @Test("Cancelling a long read interrupts it with CancellationError")
    func cancelRunningRead() async throws {
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let task = Task { [store] in
            try await store.read { db in
                startedContinuation.yield()
                return try db.fetchValue(
                    Int.self,
                    sql: """
                        WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 500000000) SELECT count(*) FROM n
                        """)
            }
        }
        for await _ in started { break }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(try await store.read { db in try db.count("item") } == 0)
    }

    @Test("A write whose task is cancelled before it starts never runs its closure")
    func cancelledBeforeStart() async throws {
        let ran = Locked(false)
        let task = Task { [store] in
            withUnsafeCurrentTask { $0?.cancel() }
            try await store.write { db in
                ran.withLock { $0 = true }
                try db.execute(sql: "INSERT INTO item(title) VALUES ('never')")
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!ran.current)
        #expect(try await store.read { db in try db.count("item") } == 0)
    }

    @Test("A write queued behind another and cancelled while waiting never runs")
    func cancelledWhileQueued() async throws {
        let writerBusy = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let ran = Locked(false)
        DispatchQueue.global().async { [store] in
            try? store.write { db in
                try db.execute(sql: "INSERT INTO item(title) VALUES ('holding the writer')")
                writerBusy.signal()
                _ = waitBriefly(release)
            }
        }
        #expect(waitBriefly(writerBusy))
        let task = Task { [store] in
            try await store.write { db in
                ran.withLock { $0 = true }
                try db.execute(sql: "INSERT INTO item(title) VALUES ('queued')")
            }
        }
        task.cancel()
        release.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!ran.current)
        #expect(
            try await store.read { db in try db.fetchRows(sql: "SELECT title FROM item").map(\.values) } == [[.text("holding the writer")]])
    }

    @Test("Cancelling after the closure returned but before commit rolls back")
    func cancelAfterBody() async throws {
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let cancelled = Locked(false)
        let task = Task { [store] in
            try await store.write { db in
                try db.execute(sql: "INSERT INTO item(title) VALUES ('written, then cancelled')")
                startedContinuation.yield()
                while !cancelled.current { usleep(1_000) }
            }
        }
        for await _ in started { break }
        task.cancel()
        cancelled.withLock { $0 = true }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await store.read { db in try db.count("item") } == 0)
    }

    @Test("An uncancelled async write commits; a cancelled one leaves the next write working")
    func cancellationDoesNotLeak() async throws {
        let task = Task { [store] in
            withUnsafeCurrentTask { $0?.cancel() }
            try await store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('never')") }
        }
        _ = await task.result
        try await store.write { db in try db.execute(sql: Self.longInsert.replacingOccurrences(of: "10000000", with: "1000")) }
        #expect(try await store.read { db in try db.count("item") } == 1_000)
    }
}
