import Foundation
import TestSupport
import Testing

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// What may sync, the schema version devices must share, the device id and the hybrid clock.
@Suite("Sync setup")
struct SyncSetupTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    private func open(schema: String, syncing tables: Set<String>) throws -> Store {
        let path = directory.path("store.sqlite")
        try Store(path: path).write { db in try db.execute(script: schema) }
        var configuration = StoreConfiguration()
        configuration.sync = SyncConfiguration(tables: tables)
        return try Store(path: path, configuration: configuration)
    }

    private func refusal(schema: String, table: String = "t") -> StoreError? {
        do {
            _ = try open(schema: schema, syncing: [table])
            return nil
        } catch {
            return error as? StoreError
        }
    }

    @Test(
        "A table whose key is a rowid, an integer, missing, composite, WITHOUT ROWID or not BINARY is refused at open, by name",
        arguments: [
            "CREATE TABLE t(id INTEGER PRIMARY KEY, x)",
            "CREATE TABLE t(id INT PRIMARY KEY, x)",
            "CREATE TABLE t(x, y)",
            "CREATE TABLE t(a TEXT, b TEXT, PRIMARY KEY (a, b))",
            "CREATE TABLE t(id TEXT PRIMARY KEY, x) WITHOUT ROWID",
            "CREATE TABLE T(id TEXT PRIMARY KEY, x) WITHOUT ROWID",
            "CREATE TABLE u(id TEXT PRIMARY KEY)",
            "CREATE TABLE t(id TEXT PRIMARY KEY COLLATE NOCASE, x)",
            "CREATE TABLE t(id TEXT, x, PRIMARY KEY (id COLLATE RTRIM))",
            "CREATE TABLE t(id TEXT COLLATE NOCASE, x, PRIMARY KEY (id COLLATE BINARY))",
        ])
    func refusedTables(schema: String) throws {
        let error = refusal(schema: schema)
        #expect(error?.code == .misuse)
        #expect(error?.message.contains("table \"t\"") == true)
    }

    /// Under `NOCASE`, "abc" on one device and "ABC" on another would each be one row in the
    /// stores but two in the sync state: the devices would end holding each other's values
    /// under their own keys. A child whose foreign key spells its parent "abc" where the
    /// parent says "ABC" would wait for good on a device where it arrived first.
    @Test(
        "A key, or a foreign key's parent column, that compares by another collation than BINARY is refused, naming the collation",
        arguments: [
            "CREATE TABLE t(id TEXT PRIMARY KEY COLLATE NOCASE, x)",
            """
            CREATE TABLE p(id TEXT PRIMARY KEY, code TEXT UNIQUE COLLATE NOCASE);
            CREATE TABLE t(id TEXT PRIMARY KEY, p_code TEXT REFERENCES p(code));
            """,
        ])
    func collationRefused(schema: String) throws {
        let error = refusal(schema: schema)
        #expect(error?.code == .misuse)
        #expect(error?.message.contains("table \"t\"") == true)
        #expect(error?.message.contains("COLLATE NOCASE") == true)
    }

    @Test("TEXT and BLOB (UUID) keys are accepted, also with BINARY spelled out")
    func acceptedKeys() throws {
        let store = try open(
            schema: "CREATE TABLE t(id TEXT PRIMARY KEY COLLATE BINARY, x); CREATE TABLE u(id BLOB PRIMARY KEY, x)",
            syncing: ["t", "u"])
        try store.write { db in
            try db.execute(sql: "INSERT INTO u(id, x) VALUES (?, 1)", arguments: [UUID()])
        }
        #expect(try store.sync.pendingChanges().changes.count == 1)
    }

    @Test("A store without sync keeps no sync tables and its sync refuses to run")
    func notOptedIn() throws {
        let store = try directory.makeStore(schema: "CREATE TABLE t(id TEXT PRIMARY KEY, x)")
        try store.write { db in try db.execute(sql: "INSERT INTO t VALUES ('a', 1)") }
        let names = try store.read { db in try db.fetchRows(sql: "SELECT name FROM sqlite_master WHERE name LIKE 'store_sync%'") }
        #expect(names.isEmpty)
        for call in [{ _ = try store.sync.pendingChanges() }, { _ = try store.sync.deviceID() }] {
            let error = #expect(throws: StoreError.self) { try call() }
            #expect(error?.code == .misuse)
        }
    }

    @Test("A batch made under another schema version is refused, and nothing of it is applied")
    func schemaVersionMismatchRefused() throws {
        let fixture = try SyncFixture(stores: 2)
        let a = try fixture.open(0)
        let b = try fixture.open(1)
        var migrator = Migrator()
        try migrator.add(Migration(version: 1, name: "memos") { db in try db.execute(sql: "CREATE TABLE memos(x)") })
        try migrator.migrate(b)
        try a.write { db in try db.execute(sql: "INSERT INTO lists(id, name) VALUES ('L1', 'Home')") }
        let batch = try a.sync.pendingChanges()
        #expect(batch.schemaVersion == 0)
        let error = #expect(throws: StoreError.self) { try b.sync.apply(batch) }
        #expect(error?.code == .mismatch)
        #expect(error?.message.contains("schema version 0") == true)
        #expect(try SyncFixture.rows(of: "lists", in: b).isEmpty)
        try b.write { db in try db.execute(sql: "INSERT INTO lists(id, name) VALUES ('L2', 'Work')") }
        #expect(try b.sync.pendingChanges().schemaVersion == 1)
    }

    @Test("A change naming a table or column that is not synced is held, the rest of its batch applied, and applies once the column exists")
    func unknownTableHeld() throws {
        let fixture = try SyncFixture(stores: 1)
        let a = try fixture.open(0)
        let stamp = HybridTimestamp(milliseconds: 1, counter: 0)
        let change = { (sequence: Int64, table: String, column: String) in
            SyncChange(
                id: SyncChange.ID(device: "other", sequence: sequence), table: table, key: .text("L1"),
                operation: .set(column: column, value: .text("x")), timestamp: stamp)
        }
        let (good, badTable, badColumn) = (change(1, "lists", "name"), change(2, "sqlite_master", "name"), change(3, "lists", "nope"))
        try a.sync.apply(SyncBatch(schemaVersion: 0, changes: [good, badTable, badColumn]))
        #expect(try SyncFixture.rows(of: "lists", in: a)["L1"]?["name"] == .text("x"))
        let held = try a.sync.heldChanges()
        #expect(held.map(\.change) == [badTable, badColumn])
        #expect(held.allSatisfy { $0.error.code == .mismatch })
        try a.sync.apply(SyncBatch(schemaVersion: 0, changes: []))
        #expect(try a.sync.heldChanges().map(\.change) == [badTable, badColumn], "tried again, held again")
        try a.close()
        let plain = try Store(path: fixture.directory.path("device0.sqlite"))
        try plain.write { db in try db.execute(sql: "ALTER TABLE lists ADD COLUMN nope TEXT") }
        try plain.close()
        let migrated = try fixture.open(0)
        try migrated.sync.apply(SyncBatch(schemaVersion: 0, changes: []))
        #expect(try SyncFixture.rows(of: "lists", in: migrated)["L1"]?["nope"] == .text("x"))
        #expect(try migrated.sync.heldChanges().map(\.change) == [badTable])
    }

    @Test("A device hours behind still wins with an edit made after seeing an edit from a device hours ahead")
    func clockSkewOfHours() throws {
        let fixture = try SyncFixture(stores: 2)
        let a = try fixture.open(0)
        let b = try fixture.open(1)
        fixture.clocks[0].now += 5 * 3_600_000  // five hours ahead
        try a.write { db in try db.execute(sql: "INSERT INTO lists(id, name) VALUES ('L1', 'from the future')") }
        let ahead = try #require(a.sync.pendingChanges().changes.first?.timestamp)
        try SyncFixture.exchange(from: a, to: b)
        try b.write { db in try db.execute(sql: "UPDATE lists SET name = 'seen and edited' WHERE id = 'L1'") }
        let edit = try #require(b.sync.pendingChanges().changes.first)
        #expect(edit.timestamp > ahead)
        try SyncFixture.exchange(from: b, to: a)
        #expect(try SyncFixture.rows(of: "lists", in: a)["L1"]?["name"] == .text("seen and edited"))
        #expect(try SyncFixture.contents(of: a) == SyncFixture.contents(of: b))
    }

    @Test("The device id and the clock survive a reopen; a clock set back never makes timestamps go back")
    func identityAndClockPersist() throws {
        let fixture = try SyncFixture(stores: 1)
        var store: Store? = try fixture.open(0)
        let device = try store?.sync.deviceID()
        try store?.write { db in try db.execute(sql: "INSERT INTO lists(id, name) VALUES ('L1', 'Home')") }
        let first = try #require(store?.sync.pendingChanges().changes.last?.timestamp)
        try store?.close()
        store = nil
        fixture.clocks[0].now -= 3_600_000
        let reopened = try fixture.open(0)
        #expect(try reopened.sync.deviceID() == device)
        try reopened.write { db in try db.execute(sql: "UPDATE lists SET name = 'Work'") }
        let second = try #require(reopened.sync.pendingChanges().changes.last)
        #expect(second.timestamp > first)
        #expect(second.id.sequence == 3)
    }

    @Test(
        "A database synced before linked cells were indexed apart is upgraded at open: an item waiting there for its list appears with it")
    func upgradeOfCellsIndexedByValue() throws {
        let fixture = try SyncFixture(stores: 2)
        let path = fixture.directory.path("device0.sqlite")
        try Store(path: path).write { db in
            try db.execute(script: SyncFixture.schema)
            try db.execute(
                script: """
                    CREATE TABLE store_sync_cells(
                        tbl TEXT NOT NULL, pk NOT NULL, col TEXT NOT NULL, value, clock INTEGER NOT NULL, device TEXT NOT NULL,
                        PRIMARY KEY (tbl, pk, col)) WITHOUT ROWID;
                    CREATE INDEX store_sync_cells_by_value ON store_sync_cells(tbl, col, value);
                    INSERT INTO store_sync_cells VALUES ('items', 'I1', 'list_id', 'L1', 1, 'old'), ('items', 'I1', 'title', 'waits', 1, 'old');
                    """)
        }
        let upgraded = try fixture.open(0)
        let other = try fixture.open(1)
        try other.write { db in try db.execute(sql: "INSERT INTO lists(id, name) VALUES ('L1', 'Home')") }
        try SyncFixture.exchange(from: other, to: upgraded)
        #expect(try SyncFixture.rows(of: "items", in: upgraded)["I1"]?["title"] == .text("waits"))
        let indexes = try upgraded.read { db in
            try db.fetchRows(
                sql:
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'store_sync_cells' AND sql IS NOT NULL ORDER BY name"
            )
            .map { $0[0] }
        }
        #expect(indexes == [.text("store_sync_cells_by_parent")])
        let links = try upgraded.read { db in
            try db.fetchRows(sql: "SELECT tbl || '.' || col FROM store_sync_cells WHERE link ORDER BY 1").map { $0[0] }
        }
        #expect(links == [.text("items.list_id")])
    }
}
