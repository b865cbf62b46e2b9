import Foundation
import Testing

@testable import SQLiteStoreCore

/// `StoreConfiguration.checkpointsInBackground`: a commit that leaves the WAL long no longer
/// copies it into the database file itself; the store's checkpointer does, off the writer.
@Suite("Checkpoints in the background")
struct BackgroundCheckpointTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Writes `pages` database pages or so in one transaction: rows of a 4,000-byte blob each.
    private static func write(pages: Int, into store: Store) throws {
        try store.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS t(b BLOB)")
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                    INSERT INTO t SELECT randomblob(4000) FROM n
                    """,
                arguments: [pages])
        }
    }

    /// Whether the database file is as long as the store's database, WAL included: whether
    /// the WAL was copied into it.
    private func fileHoldsEveryPage(of store: Store) throws -> Bool {
        let pages = try store.read { db in
            try db.fetchValue(Int.self, sql: "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size")
        }
        let size = try FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int
        return size == pages
    }

    private static func writerPragma(_ name: String, in store: Store) throws -> Int? {
        try store.writeWithoutTransaction { db in try db.fetchValue(Int.self, sql: "PRAGMA \(name)") }
    }

    @Test("A commit that leaves the WAL long does not checkpoint on the writer; the checkpointer copies the WAL afterwards")
    func checkpointsOffTheWriter() throws {
        let store = try directory.makeStore()
        // SQLite reports 0 when a hook of the store's own replaced its automatic checkpoint.
        #expect(try Self.writerPragma("wal_autocheckpoint", in: store) == 0)
        try Self.write(pages: 3_000, into: store)
        let checkpointer = try #require(store.checkpointer)
        checkpointer.waitForQueuedCheckpoints()
        #expect(try fileHoldsEveryPage(of: store))
    }

    @Test("A commit that leaves the WAL 10,000 pages long or more checkpoints on the writer, as SQLite's would")
    func checkpointsInlineWhenFarBehind() throws {
        let store = try directory.makeStore()
        try Self.write(pages: 11_000, into: store)
        #expect(try fileHoldsEveryPage(of: store))
    }

    @Test("The checkpointer's work is no commit: the writer's data_version stays, and closing removes the WAL")
    func checkpointIsNoCommit() throws {
        let store = try directory.makeStore()
        try Self.write(pages: 2_000, into: store)
        let before = try Self.writerPragma("data_version", in: store)
        try #require(store.checkpointer).waitForQueuedCheckpoints()
        #expect(try fileHoldsEveryPage(of: store))
        #expect(try Self.writerPragma("data_version", in: store) == before)
        try Self.write(pages: 2_000, into: store)
        try store.close()
        #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: store.path + "-shm"))
    }

    @Test("Turned off, or in a store that cannot checkpoint, the writer keeps SQLite's automatic checkpoint")
    func off() throws {
        var configuration = StoreConfiguration()
        configuration.checkpointsInBackground = false
        let store = try directory.makeStore(named: "off.sqlite", configuration: configuration)
        #expect(store.checkpointer == nil)
        #expect(try Self.writerPragma("wal_autocheckpoint", in: store) == 1_000)
        try Self.write(pages: 1_500, into: store)
        #expect(try fileHoldsEveryPage(of: store))
        configuration = StoreConfiguration()
        configuration.journalMode = .delete
        #expect(try directory.makeStore(named: "delete.sqlite", configuration: configuration).checkpointer == nil)
        configuration = StoreConfiguration()
        configuration.isReadOnly = true
        #expect(try directory.makeStore(named: "off.sqlite", configuration: configuration).checkpointer == nil)
        #expect(try Store.inMemory().checkpointer == nil)
    }
}
