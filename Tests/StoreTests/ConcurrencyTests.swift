import Foundation
import SQLiteStoreCore
import Testing

/// One serialized writer, concurrent readers in snapshot isolation.
@Suite("Concurrency", .timeLimit(.minutes(10)))
struct ConcurrencyTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Item.schema + "CREATE TABLE counter(n INTEGER NOT NULL); INSERT INTO counter VALUES (0);")
    }

    @Test("A read completes while a write transaction is open, and does not see it")
    func readDuringWrite() throws {
        let writeOpen = DispatchSemaphore(value: 0)
        let readDone = DispatchSemaphore(value: 0)
        let readResult = Locked<Int?>(nil)
        DispatchQueue.global().async { [store] in
            _ = waitBriefly(writeOpen)
            readResult.withLock { $0 = try? store.read { db in try db.count("item") } }
            readDone.signal()
        }
        let readFinishedInsideWrite = try store.write { db in
            try db.execute(sql: "INSERT INTO item(title) VALUES ('uncommitted')")
            writeOpen.signal()
            return waitBriefly(readDone)  // the writer holds its transaction until the read is done
        }
        #expect(readFinishedInsideWrite)
        #expect(readResult.current == 0)
        #expect(try store.read { db in try db.count("item") } == 1)
    }

    @Test("Readers during a long write see all of it or none of it")
    func allOrNothing() throws {
        let rows = 300
        let readerCount = 3
        let midway = DispatchSemaphore(value: 0)
        let sawMidway = DispatchSemaphore(value: 0)
        let writeCommitted = Locked(false)
        let counts = Locked<[Int]>([])
        let failures = Locked<[String]>([])
        let group = DispatchGroup()
        for reader in 0..<readerCount {
            DispatchQueue.global().async(group: group) { [store] in
                if reader == 0 {
                    // One reader proves it read while the write was half done.
                    _ = waitBriefly(midway)
                    do {
                        counts.withLock { $0.append(-1) }; let n = try store.read { db in try db.count("item") };
                        counts.withLock { $0.append(n) }
                    } catch { failures.withLock { $0.append("\(error)") } }
                    sawMidway.signal()
                }
                var readsAfterCommit = 0
                while readsAfterCommit < 3 {
                    let committed = writeCommitted.current
                    do {
                        let n = try store.read { db in try db.count("item") }
                        counts.withLock { $0.append(n) }
                    } catch { failures.withLock { $0.append("\(error)") } }
                    if committed { readsAfterCommit += 1 }
                }
            }
        }
        let readerSawMidway = try store.write { db in
            var reachedMidway = false
            for index in 1...rows {
                try db.execute(sql: "INSERT INTO item(title) VALUES (?)", arguments: ["row \(index)"])
                if index.isMultiple(of: 10) { usleep(500) }  // pauses give readers time to run
                if index == rows / 2 {
                    midway.signal()
                    reachedMidway = waitBriefly(sawMidway)
                }
            }
            return reachedMidway
        }
        writeCommitted.withLock { $0 = true }
        group.wait()
        let seen = counts.current.filter { $0 >= 0 }
        #expect(readerSawMidway)
        #expect(failures.current.isEmpty, "\(failures.current)")
        #expect(seen.allSatisfy { $0 == 0 || $0 == rows }, "counts seen: \(Set(seen).sorted())")
        #expect(seen.contains(0))
        #expect(seen.contains(rows))
    }

    @Test("A read keeps one snapshot for its whole closure while writes commit")
    func snapshotIsolation() throws {
        let firstCountDone = DispatchSemaphore(value: 0)
        let writeDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { [store] in
            _ = waitBriefly(firstCountDone)
            try? store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('committed meanwhile')") }
            writeDone.signal()
        }
        let (before, writeFinished, after) = try store.read { db in
            let before = try db.count("item")
            firstCountDone.signal()
            let writeFinished = waitBriefly(writeDone)
            return (before, writeFinished, try db.count("item"))
        }
        #expect(writeFinished)
        #expect(before == 0 && after == 0)
        #expect(try store.read { db in try db.count("item") } == 1)
    }

    @Test("Concurrent writes from threads and tasks are serialized: no increment is lost")
    func serializedWrites() async throws {
        let threads = 4
        let writesPerThread = 50
        let tasks = 50
        let failures = Locked<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<threads {
            DispatchQueue.global().async(group: group) { [store] in
                for _ in 0..<writesPerThread {
                    do {
                        try store.write { db in
                            let n = try db.fetchValue(Int.self, sql: "SELECT n FROM counter") ?? 0
                            try db.execute(sql: "UPDATE counter SET n = ?", arguments: [n + 1])
                        }
                    } catch { failures.withLock { $0.append("\(error)") } }
                }
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { taskGroup in
            for _ in 0..<tasks {
                taskGroup.addTask { [store] in
                    try await store.write { db in
                        let n = try db.fetchValue(Int.self, sql: "SELECT n FROM counter") ?? 0
                        try db.execute(sql: "UPDATE counter SET n = ?", arguments: [n + 1])
                    }
                }
            }
            try await taskGroup.waitForAll()
        }
        group.wait()
        #expect(failures.current.isEmpty, "\(failures.current)")
        #expect(
            try await store.read { db in try db.fetchValue(Int.self, sql: "SELECT n FROM counter") } == threads * writesPerThread + tasks)
    }

    @Test("More concurrent reads than readers wait for a free reader and all complete")
    func readerPoolQueues() async throws {
        var configuration = StoreConfiguration()
        configuration.readerCount = 2
        let store = try directory.makeStore(named: "pool.sqlite", configuration: configuration, schema: Item.schema)
        try await store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('x')") }
        let active = Locked((now: 0, most: 0))
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    try await store.read { db in
                        active.withLock {
                            $0.now += 1; $0.most = max($0.most, $0.now)
                        }
                        defer { active.withLock { $0.now -= 1 } }
                        usleep(5_000)
                        return try db.count("item")
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 1, count: 12))
        #expect(active.current.most <= 2)
    }

    @Test("Synchronous reads from many threads share the pool with async reads")
    func mixedReads() async throws {
        try await store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('x'), ('y')") }
        let syncCounts = Locked<[Int]>([])
        let group = DispatchGroup()
        for _ in 0..<8 {
            DispatchQueue.global().async(group: group) { [store] in
                let n = (try? store.read { db in try db.count("item") }) ?? -1
                syncCounts.withLock { $0.append(n) }
            }
        }
        let asyncCounts = try await withThrowingTaskGroup(of: Int.self) { taskGroup in
            for _ in 0..<8 { taskGroup.addTask { [store] in try await store.read { db in try db.count("item") } } }
            return try await taskGroup.reduce(into: [Int]()) { $0.append($1) }
        }
        group.wait()
        #expect(syncCounts.current == Array(repeating: 2, count: 8))
        #expect(asyncCounts == Array(repeating: 2, count: 8))
    }
}
