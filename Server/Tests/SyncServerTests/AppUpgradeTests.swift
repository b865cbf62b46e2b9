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
            if case .set(let column, _) = change.operation { "\(change.table).\(column)" } else { change.table }
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
