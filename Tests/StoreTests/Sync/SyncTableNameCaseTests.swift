import Foundation
import SQLiteStoreSyncProtocol
import TestSupport
import Testing

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// A synced table is named as SQLite names it: `"CAFÉS"` and `"cafés"` are two tables (SQLite
/// folds ASCII letters only), each synced under its own name; `"Lists"` is `"lists"`.
@Suite("Sync table names in non-ASCII capitals", .timeLimit(.minutes(10)))
struct SyncTableNameCaseTests {
    /// Twins with different columns, so that a row taken for the other twin's cannot land.
    static let schema = """
        CREATE TABLE "CAFÉS"(id TEXT PRIMARY KEY, name TEXT);
        CREATE TABLE "cafés"(id TEXT PRIMARY KEY, name TEXT, city TEXT);
        """

    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// Store `name` over a file with the twins, syncing `tables`.
    private func open(_ name: String, syncing tables: Set<String>) throws -> Store {
        let path = directory.path("\(name).sqlite")
        if !FileManager.default.fileExists(atPath: path) {
            let plain = try Store(path: path)
            try plain.write { db in try db.execute(script: Self.schema) }
            try plain.close()
        }
        var configuration = StoreConfiguration()
        configuration.sync = SyncConfiguration(tables: tables)
        return try Store(path: path, configuration: configuration)
    }

    private static func rows(of table: String, in store: Store) throws -> [[DatabaseValue]] {
        try store.read { db in try db.fetchRows(sql: "SELECT * FROM \(SQLIdentifier.quote(table)) ORDER BY id").map(\.values) }
    }

    @Test("Each twin's rows are sent under its own name and land in that twin on the other device")
    func twinsSyncApart() throws {
        let (a, b) = (try open("a", syncing: ["CAFÉS", "cafés"]), try open("b", syncing: ["CAFÉS", "cafés"]))
        try a.write { db in
            try db.execute(sql: #"INSERT INTO "CAFÉS"(id, name) VALUES ('u1', 'upper')"#)
            try db.execute(sql: #"INSERT INTO "cafés"(id, name, city) VALUES ('l1', 'lower', 'Lyon')"#)
        }
        let batch = try a.sync.pendingChanges(limit: 100)
        #expect(Set(batch.changes.map { Array($0.table.utf8) }) == [Array("caf\u{C9}s".utf8), Array("caf\u{E9}s".utf8)])
        try b.sync.apply(batch)
        #expect(try Self.rows(of: "CAFÉS", in: b) == [[.text("u1"), .text("upper")]])
        #expect(try Self.rows(of: "cafés", in: b) == [[.text("l1"), .text("lower"), .text("Lyon")]])
    }

    @Test("A table in non-ASCII capitals syncs alone; its unsynced lowercase twin records nothing, and its remote changes are held")
    func unsyncedTwinStaysLocal() throws {
        let a = try open("a", syncing: ["CAFÉS"])
        try a.write { db in
            try db.execute(sql: #"INSERT INTO "CAFÉS"(id, name) VALUES ('u1', 'upper')"#)
            try db.execute(sql: #"INSERT INTO "cafés"(id, name, city) VALUES ('l1', 'lower', 'Lyon')"#)
        }
        let sent = try a.sync.pendingChanges(limit: 100).changes
        #expect(sent.map(\.key) == [.text("u1")], "the twin's row is not recorded")
        #expect(sent.allSatisfy { $0.table.utf8.elementsEqual("caf\u{C9}s".utf8) })
        let stamp = HybridTimestamp(milliseconds: 1, counter: 0)
        func change(_ table: String, _ key: String) -> SyncChange {
            SyncChange(
                id: SyncChange.ID(device: "other", sequence: 1), table: table, key: .text(key),
                operation: .set(column: "name", value: .text("remote")), timestamp: stamp)
        }
        try a.sync.apply(SyncBatch(schemaVersion: 0, changes: [change("cafés", "l2")]))
        #expect(try a.sync.heldChanges().map(\.change.key) == [.text("l2")], "held, not applied to the twin")
        try a.sync.apply(SyncBatch(schemaVersion: 0, changes: [change("Caf\u{C9}S", "u2")]))
        #expect(try Self.rows(of: "CAFÉS", in: a) == [[.text("u1"), .text("upper")], [.text("u2"), .text("remote")]])
        #expect(try Self.rows(of: "cafés", in: a) == [[.text("l1"), .text("lower"), .text("Lyon")]])
    }

    @Test("A store syncing a table in non-ASCII capitals without a lowercase twin opens and records it under its own name")
    func tableWithoutTwinOpens() throws {
        let path = directory.path("alone.sqlite")
        let plain = try Store(path: path)
        try plain.write { db in try db.execute(sql: #"CREATE TABLE "ÉTÉS"(id TEXT PRIMARY KEY, name TEXT)"#) }
        try plain.close()
        var configuration = StoreConfiguration()
        configuration.sync = SyncConfiguration(tables: ["ÉTÉS"])
        let store = try Store(path: path, configuration: configuration)
        try store.write { db in try db.execute(sql: #"INSERT INTO "ÉTÉS"(id, name) VALUES ('s1', 'summer')"#) }
        let sent = try store.sync.pendingChanges(limit: 100).changes
        #expect(sent.count == 1)
        #expect(sent.allSatisfy { $0.table.utf8.elementsEqual("\u{C9}t\u{C9}s".utf8) })
    }

    @Test("A server's schema keeps the twins' columns apart and accepts each table in any ASCII case")
    func schemaKeepsTwinsApart() throws {
        let store = try open("a", syncing: ["CAFÉS", "cafés"])
        let schema = try SyncSchema(tables: ["CAFÉS", "cafés"], of: store)
        #expect(schema.columns == ["caf\u{C9}s": ["name"], "caf\u{E9}s": ["name", "city"]])
        #expect(schema.refusal(table: "cAF\u{C9}S", column: "name") == nil)
        #expect(schema.refusal(table: "CAF\u{C9}S", column: "city") != nil, "city is the lowercase twin's column")
        #expect(schema.refusal(table: "CAF\u{E9}S", column: "city") == nil, "CAFéS is the lowercase twin, in other ASCII case")
    }

    /// `"caf\u{E9}s"` and `"cafe\u{301}s"` are two tables to SQLite but one `String`, which
    /// is how ``SyncConfiguration/tables`` and change notifications name tables.
    @Test("A synced table whose name has a canonically equivalent twin in the schema is refused, naming both")
    func canonicallyEquivalentTwinRefused() throws {
        let path = directory.path("equivalent.sqlite")
        try Store(path: path).write { db in
            for table in ["caf\u{E9}s", "cafe\u{301}s"] {
                try db.execute(sql: "CREATE TABLE \(SQLIdentifier.quote(table))(id TEXT PRIMARY KEY, name TEXT)")
            }
        }
        var configuration = StoreConfiguration()
        configuration.sync = SyncConfiguration(tables: ["caf\u{E9}s"])
        let error = #expect(throws: StoreError.self) { try Store(path: path, configuration: configuration) }
        #expect(error?.code == .misuse)
        #expect(error?.message.contains("\"cafe\u{301}s\"") == true, "\(String(describing: error))")
    }

    @Test("A snapshot page may hold one key in both twins; in one twin spelled in two ASCII cases, it is the row twice")
    func snapshotPageHoldsBothTwins() throws {
        let stamp = SyncSnapshotStamp(hlc: 1 << 20, device: 0)
        let rows = ["caf\u{C9}s", "caf\u{E9}s"].map { table in
            SyncSnapshotRow(
                table: table, key: .text("k"), deleted: nil, cells: [SyncSnapshotCell(column: "name", value: .text("x"), stamp: stamp)])
        }
        let page = SyncSnapshotPage(schemaVersion: 0, cursor: 1, devices: ["d"], rows: rows, next: nil)
        #expect(try page.checked(limit: 10, cursor: nil).rows.count == 2)
        let upper = SyncSnapshotRow(table: "CAF\u{C9}S", key: .text("k"), deleted: nil, cells: rows[0].cells)
        let twice = SyncSnapshotPage(schemaVersion: 0, cursor: 1, devices: ["d"], rows: [rows[0], upper], next: nil)
        #expect(throws: SyncServerError.self) { try twice.checked(limit: 10, cursor: nil) }
    }
}
