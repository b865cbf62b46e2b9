import Foundation
import SQLiteStoreCore
import Testing

/// `Store.close()`: the connections close when it returns, not whenever the store is released.
@Suite("Closing a store", .timeLimit(.minutes(10)))
struct CloseTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    private var sideFiles: [String] {
        ["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: directory.path("test.sqlite") + $0) }
    }

    @Test("Closing a WAL store removes its -wal and -shm files at once, while the store is still referenced")
    func removesSideFiles() throws {
        let store = try directory.makeStore(schema: Item.schema)
        try store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('a')") }
        _ = try store.read { db in try db.count("item") }
        #expect(sideFiles == ["-wal", "-shm"])
        try store.close()
        #expect(sideFiles == [])
        try store.close()  // again: nothing to do
        withExtendedLifetime(store) {}
    }

    @Test("Reads, writes and checks after closing throw SQLITE_MISUSE; interrupting does nothing")
    func usesAfterCloseThrow() async throws {
        let store = try directory.makeStore(schema: Item.schema)
        try store.close()
        store.interruptRunningStatements()
        for attempt in [
            { try store.read { db in try db.count("item") } },
            { try store.write { db in try db.count("item") } },
            { try store.writeWithoutTransaction { db in try db.count("item") } },
        ] {
            let error = #expect(throws: StoreError.self) { try attempt() }
            #expect(error?.code == .misuse)
            #expect(error?.message.contains("closed") == true)
        }
        await #expect(throws: StoreError.self) { try await store.read { db in try db.count("item") } }
        await #expect(throws: StoreError.self) { try await store.write { db in try db.count("item") } }
        #expect(throws: StoreError.self) { try store.checkForExternalChanges() }
    }

    @Test("Closing inside a read or write of the same store throws instead of waiting for itself")
    func closeInsideAJobThrows() throws {
        let store = try directory.makeStore(schema: Item.schema)
        let insideWrite = try store.write { _ in Result { try store.close() } }
        let insideRead = try store.read { _ in Result { try store.close() } }
        for result in [insideWrite, insideRead] {
            #expect(throws: StoreError.self) { try result.get() }
        }
        #expect(try store.read { db in try db.count("item") } == 0)
    }

    @Test("A read running when close is called finishes first; reads after it throw")
    func closeWaitsForRunningJobs() async throws {
        let store = try directory.makeStore(schema: Item.schema)
        let started = DispatchSemaphore(value: 0)
        let rows = Task {
            try await store.read { db in
                started.signal()
                return try db.fetchValue(
                    Int.self, sql: "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000) SELECT count(*) FROM n"
                )
            }
        }
        await Task.detached { started.wait() }.value
        try store.close()
        #expect(try await rows.value == 300_000)
        #expect(throws: StoreError.self) { try store.read { db in try db.count("item") } }
    }

    @Test("Reads racing with close either complete or throw SQLITE_MISUSE, and nothing crashes")
    func readsRacingClose() async throws {
        var configuration = StoreConfiguration()
        configuration.readerCount = 3
        let store = try directory.makeStore(configuration: configuration, schema: Item.schema)
        let outcomes = await withTaskGroup(of: String.self) { group in
            for index in 0..<40 {
                group.addTask {
                    if index == 20 { return (try? store.close()) == nil ? "close failed" : "closed" }
                    do {
                        _ = try await store.read { db in try db.count("item") }
                        return "read"
                    } catch let error as StoreError where error.code == .misuse {
                        return "misuse"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(outcomes.isSubset(of: ["read", "misuse", "closed"]), "\(outcomes)")
        #expect(sideFiles == [])
    }
}
