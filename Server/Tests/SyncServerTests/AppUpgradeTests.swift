import Foundation
import SQLiteStore
import SQLiteStoreSyncProtocol
import SyncServerHarness
import Testing

/// Devices on different app versions: an additive migration (a column with a default, a new
/// table) leaves older devices syncing with newer ones and the server, receiving only what
/// their version has and never erasing the newer columns' values; a device that migrates then
/// reads what it was not sent; a migration that is not additive, or a device newer than the
/// server, is answered `upgradeRequired`, and the device keeps its data and its outbox.
@Suite("App upgrades", .serialized, .timeLimit(.minutes(2)))
struct AppUpgradeTests {
    /// The base tables, syncing at every version.
    static let baseTables = SyncedStores.tables
    /// Version 2's tables: the base ones and `labels`.
    static let newTables = SyncedStores.tables.union(["labels"])

    /// Migrations up to `version`: 1 is the tests' base schema; 2 adds `items.priority` (with a
    /// default) and the table `labels`; 3 drops `tags.label`, which older apps cannot follow.
    static func migrations(upTo version: Int) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("upgrade-migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(SyncedStores.schema.utf8).write(to: folder.appendingPathComponent("0001_items_and_tags.sql"))
        if version >= 2 {
            try Data(
                """
                ALTER TABLE items ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE labels(id TEXT PRIMARY KEY, name TEXT);
                """.utf8
            ).write(to: folder.appendingPathComponent("0002_priority_and_labels.sql"))
        }
        if version >= 3 {
            try Data("ALTER TABLE tags DROP COLUMN label;".utf8).write(to: folder.appendingPathComponent("0003_no_tag_labels.sql"))
        }
        return folder
    }

    private static func items(_ store: Store, withPriority: Bool) throws -> [String] {
        let priority = withPriority ? " || '|' || quote(priority)" : ""
        return try store.read { db in
            try db.fetchRows(sql: "SELECT quote(id) || '|' || quote(title)\(priority) FROM items ORDER BY id").map { row in
                if case .text(let text) = row[0] { text } else { "\(row[0])" }
            }
        }
    }

    @Test("A device on the older version syncs with a newer one through the server, and catches up once it migrates")
    func olderAndNewerDevicesSync() async throws {
        let fixture = try ServerFixture()
        let server = try await SyncServerProcess(
            database: fixture.database, migrations: try Self.migrations(upTo: 2), tables: Self.newTables)
        let token = try fixture.token(for: "alice")
        let olderClients = try SyncedStores(count: 1, migrations: try Self.migrations(upTo: 1), tables: Self.baseTables)
        let newerClients = try SyncedStores(count: 1, migrations: try Self.migrations(upTo: 2), tables: Self.newTables)
        var older = olderClients.stores[0]
        let newer = newerClients.stores[0]
        func sync(_ store: Store) async throws { try await SyncClient(store: store, server: server.url, token: token).synchronize() }

        try await newer.write { db in
            try db.execute(sql: "INSERT INTO items(id, title, priority) VALUES ('x', 'from newer', 5)")
            try db.execute(sql: "INSERT INTO labels(id, name) VALUES ('l1', 'urgent')")
        }
        try await sync(newer)
        try await sync(older)
        #expect(try Self.items(older, withPriority: false) == ["'x'|'from newer'"])
        #expect(try older.sync.heldChanges().isEmpty, "the older device was sent nothing its version lacks")
        let pulled = try await HTTP.send(
            "GET", ServerFixture.pullURL(server.url, device: "someone").appending(queryItems: [URLQueryItem(name: "schema", value: "1")]),
            token: token)
        let names = try pulled.decode(SyncPullResponse.self).changes.map { change -> String in
            change.column.map { "\(change.table).\($0)" } ?? change.table
        }
        #expect(!names.isEmpty && !names.contains("items.priority") && !names.contains { $0.hasPrefix("labels") })

        try await older.write { db in try db.execute(sql: "UPDATE items SET title = 'edited by older' WHERE id = 'x'") }
        try await sync(older)
        try await sync(newer)
        #expect(try Self.items(newer, withPriority: true) == ["'x'|'edited by older'|5"], "the older edit kept the newer column")
        try await newer.write { db in try db.execute(sql: "UPDATE items SET priority = 7 WHERE id = 'x'") }
        try await sync(newer)

        // The older device migrates, with a change it has not pushed.
        try await older.write { db in try db.execute(sql: "INSERT INTO items(id, title) VALUES ('y', 'unpushed')") }
        try older.close()
        let plain = try Store(path: olderClients.path(0))
        try Migrator(folder: try Self.migrations(upTo: 2).path).migrate(plain)
        try plain.close()
        olderClients.tables = Self.newTables
        older = try olderClients.open(0)
        try await sync(older)
        try await sync(newer)
        let expected = ["'x'|'edited by older'|7", "'y'|'unpushed'|0"]
        #expect(try Self.items(older, withPriority: true) == expected, "the migrated device read the values it was not sent")
        #expect(try Self.items(newer, withPriority: true) == expected)
        let label = try await older.read { db in try db.fetchValue(String.self, sql: "SELECT name FROM labels WHERE id = 'l1'") }
        #expect(label == "urgent")
    }

    /// The seed of ``randomWritesAcrossVersions()``: `SYNC_UPGRADE_SEED` replays one, else 57.
    static let seed = ProcessInfo.processInfo.environment["SYNC_UPGRADE_SEED"].flatMap(UInt64.init) ?? 57

    @Test("Random writes of devices on two versions, one of them migrating midway, checked against the merge rule")
    func randomWritesAcrossVersions() async throws {
        let fixture = try ServerFixture()
        let server = try await SyncServerProcess(
            database: fixture.database, migrations: try Self.migrations(upTo: 2), tables: Self.newTables)
        let token = try fixture.token(for: "alice")
        let olderClients = try SyncedStores(count: 2, migrations: try Self.migrations(upTo: 1), tables: Self.baseTables)
        let newerClients = try SyncedStores(count: 2, migrations: try Self.migrations(upTo: 2), tables: Self.newTables)
        var devices: [(store: Store, version: Int)] = olderClients.stores.map { ($0, 1) } + newerClients.stores.map { ($0, 2) }
        var random = SplitMix64(seed: Self.seed)
        let keys = (0..<8).map { "k\($0)" }
        for step in 0..<240 {
            if step == 200 {
                // Device 0 migrates late, with whatever it has not pushed yet: much of what it was
                // not sent is not written again after it.
                try devices[0].store.close()
                let plain = try Store(path: olderClients.path(0))
                try Migrator(folder: try Self.migrations(upTo: 2).path).migrate(plain)
                try plain.close()
                olderClients.tables = Self.newTables
                devices[0] = (try olderClients.open(0), 2)
            }
            let (store, version) = devices[Int.random(in: 0..<devices.count, using: &random)]
            let key = keys.randomElement(using: &random) ?? "k0"
            let value = Int64.random(in: 0..<1_000, using: &random)
            let statement: (sql: String, arguments: [any DatabaseValueConvertible & Sendable])? =
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<3:
                    (
                        "INSERT INTO items(id, title, n) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET title = excluded.title, n = excluded.n",
                        [key, "t\(step)", value]
                    )
                case 3..<5 where version == 2:
                    (
                        "INSERT INTO items(id, title, priority) VALUES (?, 'p', ?) ON CONFLICT(id) DO UPDATE SET priority = excluded.priority",
                        [key, value]
                    )
                case 5: ("DELETE FROM items WHERE id = ?", [key])
                case 6 where version == 2:
                    ("INSERT INTO labels(id, name) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET name = excluded.name", [key, "l\(value)"])
                default: nil
                }
            if let statement {
                try await store.write { db in try db.execute(sql: statement.sql, arguments: statement.arguments) }
            } else {
                try await SyncClient(store: store, server: server.url, token: token).synchronize()
            }
        }
        for _ in 0..<2 {
            for device in devices { try await SyncClient(store: device.store, server: server.url, token: token).synchronize() }
        }

        let model = SyncMergeModel(changes: try await ServerDatabase.wireChanges(in: fixture.database))
        func quoted(_ value: SyncWireValue?) -> String {
            switch value {
            case .text(let text)?: "'\(text)'"
            case .integer(let integer)?: "\(integer)"
            default: "NULL"
            }
        }
        let items = model.presentRows(of: "items").sorted { quoted($0.key) < quoted($1.key) }
        let shared = items.map { "\(quoted($0.key))|\(quoted($0.value["title"] ?? .text("")))|\(quoted($0.value["n"]))" }
        let whole = items.map {
            "\(quoted($0.key))|\(quoted($0.value["title"] ?? .text("")))|\(quoted($0.value["priority"] ?? .integer(0)))"
        }
        let labels = model.presentRows(of: "labels").map { "\(quoted($0.key))|\(quoted($0.value["name"]))" }.sorted()
        #expect(!shared.isEmpty, "seed \(Self.seed)")
        for (index, device) in devices.enumerated() {
            let rows = try await device.store.read { db in
                try db.fetchRows(sql: "SELECT quote(id) || '|' || quote(title) || '|' || quote(n) FROM items ORDER BY id").map { row in
                    if case .text(let text) = row[0] { text } else { "\(row[0])" }
                }
            }
            #expect(rows == shared, "seed \(Self.seed), device \(index) on version \(device.version): the shared columns")
            if device.version == 2 {
                #expect(try Self.items(device.store, withPriority: true) == whole, "seed \(Self.seed), device \(index): priority")
                let names = try await device.store.read { db in
                    try db.fetchRows(sql: "SELECT quote(id) || '|' || quote(name) FROM labels ORDER BY id").map { row in
                        if case .text(let text) = row[0] { text } else { "\(row[0])" }
                    }
                }
                #expect(names == labels, "seed \(Self.seed), device \(index): labels")
            }
        }
    }

    @Test("A migration that is not additive, and a device newer than the server, are answered upgradeRequired; the device keeps its data")
    func upgradeRequired() async throws {
        let fixture = try ServerFixture()
        let server = try await SyncServerProcess(
            database: fixture.database, migrations: try Self.migrations(upTo: 3), tables: Self.newTables)
        let token = try fixture.token(for: "alice")
        for (version, hint) in [(2, "upgrade the app"), (1, "upgrade the app")] {
            let clients = try SyncedStores(
                count: 1, migrations: try Self.migrations(upTo: version), tables: version == 1 ? Self.baseTables : Self.newTables)
            let store = clients.stores[0]
            try await store.write { db in try db.execute(sql: "INSERT INTO items(id, title) VALUES ('x', 'kept')") }
            let outbox = try store.sync.pendingChanges().changes.count
            do {
                try await SyncClient(store: store, server: server.url, token: token).synchronize()
                Issue.record("a device on version \(version) synced across migration 3")
            } catch let error as SyncServerError {
                #expect(error.reason == .upgradeRequired && error.status == 409 && error.message.contains(hint), "\(error)")
            }
            #expect(try store.sync.pendingChanges().changes.count == outbox && Self.items(store, withPriority: false) == ["'x'|'kept'"])
        }
        #expect(try await ServerDatabase.changes(in: fixture.database).isEmpty)

        let olderFixture = try ServerFixture()
        let olderServer = try await SyncServerProcess(
            database: olderFixture.database, migrations: try Self.migrations(upTo: 1), tables: Self.baseTables)
        let newerClients = try SyncedStores(count: 1, migrations: try Self.migrations(upTo: 2), tables: Self.newTables)
        do {
            try await SyncClient(store: newerClients.stores[0], server: olderServer.url, token: try olderFixture.token(for: "bob"))
                .synchronize()
            Issue.record("a device newer than the server synced")
        } catch let error as SyncServerError {
            #expect(error.reason == .upgradeRequired && error.message.contains("upgrade the server"), "\(error)")
        }
    }
}
