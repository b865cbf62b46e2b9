import Foundation
import SQLiteStoreCore
import Testing

/// Commits by other connections and processes reach the store's subscribers.
@Suite(.timeLimit(.minutes(10))) struct ExternalChangeTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    @Test func writeByAnotherConnectionArrivesAsAnExternalChange() async throws {
        let store = try directory.makeStore(schema: "CREATE TABLE t(id INTEGER PRIMARY KEY, v);")
        var changes = store.changes(in: ["t"]).makeAsyncIterator()
        let other = try RawConnection(path: directory.path("test.sqlite"))
        try other.execute("INSERT INTO t(v) VALUES (1)")
        // The store polls every 100 ms by default; the next change must be this one.
        let received = await changes.next()
        #expect(received?.isExternal == true)
        #expect(received?.touches("t") == true)
    }

    #if os(Linux) || os(macOS)  // runs the sqlite3 tool as another process
    @Test func writeByTheSqlite3ToolIsDetectedByAnExplicitCheck() async throws {
        var configuration = StoreConfiguration()
        configuration.externalChangePollInterval = nil
        let store = try directory.makeStore(configuration: configuration, schema: "CREATE TABLE t(id INTEGER PRIMARY KEY, v);")
        var changes = store.changes().makeAsyncIterator()
        try store.checkForExternalChanges()  // nothing yet: publishes nothing, so our own write comes next
        try await store.write { db in try db.execute(sql: "INSERT INTO t(v) VALUES (1)") }
        #expect(await changes.next()?.isExternal == false)
        let tool = try SpawnedProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["sqlite3", directory.path("test.sqlite"), "INSERT INTO t(v) VALUES (2);"],
            standardOutput: .handle(FileHandle.standardOutput), standardError: .handle(FileHandle.standardError))
        try #require(try await tool.exited() == 0, "the sqlite3 tool must be installed (.ci/run installs it)")
        try store.checkForExternalChanges()
        let received = await changes.next()
        #expect(received?.isExternal == true)
        #expect(received?.affectsAllTables == true)
    }
    #endif

    @Test func ownWritesAreNotReportedAsExternal() async throws {
        let store = try directory.makeStore(schema: "CREATE TABLE t(id INTEGER PRIMARY KEY, v);")
        var changes = store.changes().makeAsyncIterator()
        try await store.write { db in try db.execute(sql: "INSERT INTO t(v) VALUES (3)") }
        try store.checkForExternalChanges()
        try await store.write { db in try db.execute(sql: "INSERT INTO t(v) VALUES (4)") }
        let first = await changes.next()
        let second = await changes.next()
        #expect(first?.isExternal == false)
        #expect(second?.isExternal == false, "the check between the two writes found nothing external")
        #expect(second?.changes(in: "t").inserted == [2])
    }
}

/// A read-only store reads and observes a file that other programs write, and never writes it.
@Suite(.timeLimit(.minutes(10))) struct ReadOnlyStoreTests {
    @Test func readOnlyStoreKeepsTheFileAsItIsAndSeesOtherWriters() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("rollback-journal.sqlite")
        let writer = try RawConnection(path: path, create: true)
        try writer.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v); INSERT INTO t(v) VALUES (1);")
        let bytesBefore = try Data(contentsOf: URL(fileURLWithPath: path))

        var configuration = StoreConfiguration()
        configuration.isReadOnly = true
        let store = try Store(path: path, configuration: configuration)
        var changes = store.changes(in: ["t"]).makeAsyncIterator()
        let error = #expect(throws: StoreError.self) { try store.write { db in try db.execute(sql: "INSERT INTO t(v) VALUES (2)") } }
        #expect(error?.code == .readOnly)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytesBefore, "journal mode and contents untouched")

        try writer.execute("INSERT INTO t(v) VALUES (3)")
        #expect(await changes.next()?.isExternal == true)
        let count = try await store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM t") }
        #expect(count == 2)
    }

    @Test func readOnlyStoreDoesNotCreateAMissingFile() throws {
        let directory = try TemporaryDirectory()
        var configuration = StoreConfiguration()
        configuration.isReadOnly = true
        #expect(throws: StoreError.self) { try Store(path: directory.path("missing.sqlite"), configuration: configuration) }
        #expect(!FileManager.default.fileExists(atPath: directory.path("missing.sqlite")))
    }
}
