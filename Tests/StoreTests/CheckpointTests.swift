import Foundation
import Testing

@testable import SQLiteStoreCore

/// The WAL's checkpoints run on the store's checkpointer, beside the writer's commits, and the
/// writer checkpoints itself only when the log grows past four times the threshold.
@Suite("Checkpoints beside the writer", .timeLimit(.minutes(10)))
struct CheckpointTests {
    let directory: TemporaryDirectory
    /// `wal_autocheckpoint` in pages, small so that a few rows pass it.
    static let threshold = 8
    /// A row's blob: about one page.
    static let insertPage = "INSERT INTO pages(content) VALUES (zeroblob(4000))"

    init() throws {
        directory = try TemporaryDirectory()
    }

    private func makeStore(threshold: Int = threshold) throws -> Store {
        var configuration = StoreConfiguration()
        configuration.prepareDatabase = { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = \(threshold)") }
        return try directory.makeStore(configuration: configuration, schema: "CREATE TABLE pages(id INTEGER PRIMARY KEY, content BLOB)")
    }

    /// Writes `pages` rows of about a page each, in one transaction.
    private func write(pages: Int, to store: Store) throws {
        try store.write { db in
            for _ in 0..<pages { try db.execute(sql: Self.insertPage) }
        }
    }

    private func size(_ suffix: String = "") throws -> Int {
        try FileManager.default.attributesOfItem(atPath: directory.path("test.sqlite") + suffix)[.size] as? Int ?? 0
    }

    @Test("A commit that passes the threshold returns before the checkpoint, which the checkpointer runs then")
    func checkpointerCheckpoints() throws {
        let store = try makeStore()
        let checkpointer = try #require(store.checkpointer)
        #expect(checkpointer.threshold == Int32(Self.threshold))
        let before = try size()
        try checkpointer.whileHeld {
            try write(pages: 2 * Self.threshold, to: store)
            #expect(try size() == before, "the writer checkpointed on its own")
        }
        checkpointer.whileHeld {}
        #expect(try size() >= before + 2 * Self.threshold * 4000, "the checkpointer did not checkpoint")
        #expect(try store.read { db in try db.count("pages") } == 2 * Self.threshold)
    }

    @Test("Past four times the threshold the writer checkpoints itself, so that the log stays bounded")
    func backPressure() throws {
        let store = try makeStore()
        let checkpointer = try #require(store.checkpointer)
        let before = try size()
        var largestLog = 0
        try checkpointer.whileHeld {
            for _ in 0..<20 {
                try write(pages: Self.threshold, to: store)
                largestLog = max(largestLog, try size("-wal"))
            }
            #expect(try size() > before, "the writer never checkpointed")
        }
        // Without the writer's checkpoints, the log would hold every one of the 160 pages written.
        let frame = 4096 + 24
        #expect(largestLog <= (Int(WALCheckpointer.backPressureFactor) + 2) * Self.threshold * frame)
        #expect(try store.read { db in try db.count("pages") } == 20 * Self.threshold)
    }

    @Test("A writer with wal_autocheckpoint 0 gets no checkpointer: its checkpoints are the app's")
    func disabledCheckpoints() throws {
        let store = try makeStore(threshold: 0)
        #expect(store.checkpointer == nil)
        let before = try size()
        try write(pages: 10 * Self.threshold, to: store)
        #expect(try size() == before)
        try store.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") }
        #expect(try size() > before)
    }

    @Test("Setting wal_autocheckpoint on the writer later gives the checkpoints back to the writer")
    func autocheckpointSetLater() throws {
        let store = try makeStore()
        let checkpointer = try #require(store.checkpointer)
        let before = try size()
        try checkpointer.whileHeld {
            try store.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.threshold)") }
            try write(pages: 2 * Self.threshold, to: store)
            #expect(try size() > before, "the writer did not checkpoint")
        }
    }

    @Test("Once the checkpointer has checkpointed, a migration can take the store out of WAL mode")
    func journalModeLeavesWAL() throws {
        let store = try makeStore()
        let checkpointer = try #require(store.checkpointer)
        let before = try size()
        try write(pages: 2 * Self.threshold, to: store)
        checkpointer.whileHeld {}
        #expect(try size() > before, "the checkpointer did not checkpoint")
        var migrator = Migrator()
        try migrator.add(
            Migration(version: 1, name: "leave_wal", usesTransaction: false) { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") })
        try migrator.migrate(store)
        #expect(try store.read { db in try db.fetchValue(String.self, sql: "PRAGMA journal_mode") } == "delete")
    }

    @Test("Stores outside WAL mode, read-only or in memory have no checkpointer")
    func noCheckpointer() throws {
        var deleteMode = StoreConfiguration()
        deleteMode.journalMode = .delete
        #expect(try directory.makeStore(named: "delete.sqlite", configuration: deleteMode).checkpointer == nil)
        try makeStore().close()
        var readOnly = StoreConfiguration()
        readOnly.isReadOnly = true
        #expect(try directory.makeStore(configuration: readOnly).checkpointer == nil)
        #expect(try Store.inMemory().checkpointer == nil)
    }

    @Test("Closing with a checkpoint queued leaves the rows in the file and no -wal or -shm beside it")
    func closeWithCheckpointQueued() throws {
        let store = try makeStore()
        try write(pages: 2 * Self.threshold, to: store)
        try store.close()
        #expect(!FileManager.default.fileExists(atPath: directory.path("test.sqlite-wal")))
        #expect(!FileManager.default.fileExists(atPath: directory.path("test.sqlite-shm")))
        let reopened = try Store(path: directory.path("test.sqlite"))
        #expect(try reopened.read { db in try db.count("pages") } == 2 * Self.threshold)
    }

    @Test("Writes that pass the threshold racing with close: each committed write is in the file, whole", arguments: 0..<4)
    func writesRacingClose(closeAfter steps: Int) async throws {
        let store = try makeStore()
        let writes = Task {
            var committed = 0
            for _ in 0..<200 {
                do {
                    try await store.write { db in
                        for _ in 0..<Self.threshold { try db.execute(sql: Self.insertPage) }
                    }
                    committed += 1
                } catch let error as StoreError where error.code == .misuse {
                    break
                }
            }
            return committed
        }
        // Close after a varying number of the writer's checkpoints have been queued.
        try await Task.sleep(for: .milliseconds(5 * steps))
        try store.close()
        let committed = try await writes.value
        let reopened = try Store(path: directory.path("test.sqlite"))
        #expect(try await reopened.read { db in try db.count("pages") } == committed * Self.threshold)
        #expect(try await reopened.read { db in try db.fetchValue(String.self, sql: "PRAGMA integrity_check") } == "ok")
    }
}
