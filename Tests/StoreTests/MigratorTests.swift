import CSQLite
import Foundation
import SQLiteStoreCore
import Testing

/// The migrator against real database files: atomic migrations, the ledger, rollback,
/// foreign keys around table rebuilds, refusals, and concurrent migrators.
@Suite("Migrator")
struct MigratorTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore()
    }

    /// A new folder with the example migrations up to `last` and the given extra files.
    func folder(withExamplesUpTo last: Int = 4, plus extra: [String: String] = [:]) throws -> String {
        var files = extra
        for name in try FileManager.default.contentsOfDirectory(atPath: exampleMigrationsFolder)
        where (Int(name.prefix(4)) ?? .max) <= last {
            files[name] = try String(contentsOfFile: exampleMigrationsFolder + "/" + name, encoding: .utf8)
        }
        return try directory.writeMigrations(files, folder: "Migrations-\(UUID().uuidString)")
    }

    /// The schema and every row of every table, to compare database states.
    func snapshot() throws -> [String] {
        try store.read { db in
            try db.schema().flatMap { object -> [String] in
                guard object.type == "table" else { return [object.sql] }
                let rows = try db.fetchRows(sql: "SELECT * FROM \"\(object.name)\" ORDER BY rowid")
                return [object.sql] + rows.map(\.description)
            } + db.fetchRows(sql: "SELECT version, name, checksum FROM store_migrations ORDER BY version").map(\.description)
        }
    }

    func insertListsAndItems() throws {
        try store.write { db in
            try db.execute(
                script: """
                    INSERT INTO list (id, name) VALUES (1, 'Home'), (2, 'Work');
                    INSERT INTO item (list_id, title, category, position, due_date, done) VALUES
                        (1, 'Milk', 'groceries', 1, '2026-01-02', 0),
                        (1, 'Bread', 'groceries', 2, NULL, 1),
                        (2, 'Report', 'writing', 1, '2026-02-01', 0);
                    """)
        }
    }

    @Test("Migrating a new database applies every migration once and records it in the ledger")
    func migrateAll() throws {
        let migrator = try Migrator(folder: folder())
        var reported: [Int] = []
        let steps = try migrator.migrate(store) { reported.append($0.migration.version) }
        #expect(steps.map(\.migration.version) == [1, 2, 3, 4])
        #expect(reported == [1, 2, 3, 4])
        #expect(try migrator.migrate(store).isEmpty)
        let status = try migrator.status(store)
        #expect(status.currentVersion == 4)
        #expect(status.entries.allSatisfy { $0.state == .applied && $0.appliedAt != nil && $0.duration != nil })
        let ledger = try store.read { db in
            try db.fetchRows(sql: "SELECT version, name, checksum FROM store_migrations ORDER BY version")
        }
        #expect(ledger.map { $0["name"] } == migrator.migrations.map { .text($0.name) })
        #expect(ledger.map { $0["checksum"] } == migrator.migrations.map { .text($0.checksum) })
    }

    @Test("migrate(to:) stops at the target; an unknown target is refused before anything runs")
    func migrateToTarget() throws {
        let migrator = try Migrator(folder: folder())
        try migrator.migrate(store, to: 2)
        #expect(try migrator.status(store).currentVersion == 2)
        #expect(throws: MigrationError.self) { try migrator.migrate(store, to: 9) }
        #expect(try migrator.status(store).currentVersion == 2)
    }

    @Test("A failing migration leaves the database exactly as after the one before it, and names its line")
    func failingMigrationRollsBack() throws {
        let broken = """
            -- Rebuild list, then fail.
            CREATE TABLE new_list (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            INSERT INTO new_list SELECT id, name FROM list;
            DROP TABLE list;
            ALTER TABLE new_list RENAME TO list;
            UPDATE item SET done = 1;
            INSERT INTO
                no_such_table VALUES (1);
            """
        let migrator = try Migrator(folder: folder(withExamplesUpTo: 2, plus: ["0003_broken.sql": broken]))
        try migrator.migrate(store, to: 2)
        try insertListsAndItems()
        let before = try snapshot()
        #expect {
            try migrator.migrate(store)
        } throws: { error in
            guard case MigrationError.migrationFailed(let failure) = error else { return false }
            return failure.version == 3 && failure.line == 7 && failure.location.hasSuffix("/0003_broken.sql")
                && failure.wasRolledBack && (failure.error as? StoreError)?.message == "no such table: no_such_table"
        }
        #expect(try snapshot() == before)
        #expect(try migrator.status(store).entries(.pending).map(\.version) == [3])
    }

    @Test("Rebuilding a table that others refer to with ON DELETE CASCADE keeps the children's rows")
    func tableRebuildKeepsChildren() throws {
        let migrator = try Migrator(folder: folder())
        try migrator.migrate(store, to: 2)
        try insertListsAndItems()
        try migrator.migrate(store, to: 3)
        let (items, violations, position) = try store.read { db in
            (
                try db.fetchValue(Int.self, sql: "SELECT count(*) FROM item"),
                try db.fetchRows(sql: "PRAGMA foreign_key_check"),
                try db.fetchValue(Int.self, sql: "SELECT position FROM list WHERE id = 2")
            )
        }
        #expect(items == 3)
        #expect(violations.isEmpty)
        #expect(position == 2)
    }

    @Test("Foreign keys are back on after migrating, and still cascade")
    func foreignKeysRestored() throws {
        try Migrator(folder: folder()).migrate(store)
        try insertListsAndItems()
        let (foreignKeys, items) = try store.write { db in
            let foreignKeys = try db.fetchValue(Bool.self, sql: "PRAGMA foreign_keys")
            try db.execute(sql: "DELETE FROM list WHERE id = 1")
            return (foreignKeys, try db.fetchValue(Int.self, sql: "SELECT count(*) FROM item"))
        }
        #expect(foreignKeys == true)
        #expect(items == 1)
    }

    @Test("A migration that leaves a foreign key violation is rolled back")
    func foreignKeyViolationRollsBack() throws {
        let orphan = "INSERT INTO item (list_id, title) VALUES (42, 'orphan');"
        let migrator = try Migrator(folder: folder(withExamplesUpTo: 2, plus: ["0003_orphan.sql": orphan]))
        try migrator.migrate(store, to: 2)
        let before = try snapshot()
        #expect {
            try migrator.migrate(store)
        } throws: { error in
            guard case MigrationError.migrationFailed(let failure) = error, let storeError = failure.error as? StoreError else {
                return false
            }
            return storeError.code == .constraint && storeError.extendedCode == SQLITE_CONSTRAINT | (3 << 8)
                && failure.statement == "PRAGMA foreign_key_check"
        }
        #expect(try snapshot() == before)
    }

    @Test("rollback undoes the newest migration, or every one above a target; then migrate restores the schema")
    func rollbackAndMigrateAgain() throws {
        let migrator = try Migrator(folder: folder())
        try migrator.migrate(store)
        let migrated = try snapshot()
        #expect(try migrator.rollback(store).map(\.migration.version) == [4])
        #expect(try migrator.status(store).currentVersion == 3)
        #expect(try migrator.rollback(store, to: 1).map(\.migration.version) == [3, 2])
        #expect(try migrator.rollback(store, to: 0).map(\.migration.version) == [1])
        #expect(try store.read { db in try db.schema() }.isEmpty)
        #expect(try migrator.rollback(store).isEmpty)
        try migrator.migrate(store)
        #expect(try snapshot().filter { !$0.hasPrefix("[version") } == migrated.filter { !$0.hasPrefix("[version") })
    }

    @Test("rollback refuses, before changing anything, when a migration to undo has no down section")
    func irreversible() throws {
        let migrator = try Migrator(folder: folder(withExamplesUpTo: 2, plus: ["0003_forever.sql": "CREATE TABLE forever(x);"]))
        try migrator.migrate(store)
        let before = try snapshot()
        #expect {
            try migrator.rollback(store, to: 1)
        } throws: { error in
            guard case MigrationError.irreversible(let entries) = error else { return false }
            return entries.map(\.version) == [3]
        }
        #expect(try snapshot() == before)
    }

    @Test("Edited and missing migrations are reported and refused unless allowed; CRLF is not an edit")
    func editedAndMissing() throws {
        let original = try folder(withExamplesUpTo: 3)
        try Migrator(folder: original).migrate(store)
        let item = original + "/0002_create_item.sql"
        let text = try String(contentsOfFile: item, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: URL(fileURLWithPath: item))
        #expect(try Migrator(folder: original).status(store).differences.isEmpty)

        try Data((text + "-- edited\n").utf8).write(to: URL(fileURLWithPath: item))
        try FileManager.default.removeItem(atPath: original + "/0001_create_list.sql")
        let edited = try Migrator(folder: original)
        let status = try edited.status(store)
        #expect(status.entries.map(\.state) == [.missing, .edited, .applied])
        #expect {
            try edited.migrate(store)
        } throws: { error in
            guard case MigrationError.editedOrMissing(let entries) = error else { return false }
            return entries.map(\.version) == [1, 2]
        }
        #expect(try edited.migrate(store, options: .allowEdited).isEmpty)
    }

    @Test("Versions applied beyond every file are unknown, not missing")
    func unknownVersions() throws {
        try Migrator(folder: folder()).migrate(store)
        let older = try Migrator(folder: directory.writeMigrations([:], folder: "Empty"))
        #expect(try older.status(store).entries.map(\.state) == [.unknown, .unknown, .unknown, .unknown])
        let fewer = try Migrator(folder: folder(withExamplesUpTo: 2))
        #expect(try fewer.status(store).entries.map(\.state) == [.applied, .applied, .unknown, .unknown])
        #expect(try fewer.migrate(store).isEmpty)
    }

    @Test("Pending migrations older than the newest applied one are refused unless allowed")
    func outOfOrder() throws {
        let swiftMigration = Migration(version: 10, name: "later") { db in try db.execute(sql: "CREATE TABLE later(x)") }
        var migrator = try Migrator(folder: folder(withExamplesUpTo: 2))
        try migrator.add(swiftMigration)
        try migrator.migrate(store)
        var withOlder = try Migrator(folder: folder(withExamplesUpTo: 3))
        try withOlder.add(swiftMigration)
        let pending = try withOlder.status(store).entries(.pending)
        #expect(pending.map(\.version) == [3] && pending.allSatisfy(\.isOutOfOrder))
        #expect(throws: MigrationError.self) { try withOlder.migrate(store) }
        #expect(try withOlder.migrate(store, options: .allowOutOfOrder).map(\.migration.version) == [3])
    }

    @Test("Swift migrations apply and roll back; one that throws is rolled back with what it did")
    func swiftMigrations() throws {
        struct Refusal: Error {}
        var migrator = Migrator()
        try migrator.add(
            Migration(version: 1, name: "create") { db in
                try db.execute(sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT)")
            } down: { db in
                try db.execute(sql: "DROP TABLE note")
            })
        try migrator.add(
            Migration(version: 2, name: "fails") { db in
                try db.execute(sql: "INSERT INTO note(text) VALUES ('kept?')")
                throw Refusal()
            })
        #expect {
            try migrator.migrate(store)
        } throws: { error in
            guard case MigrationError.migrationFailed(let failure) = error else { return false }
            return failure.version == 2 && failure.error is Refusal && failure.line == nil
        }
        #expect(try store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM note") } == 0)
        #expect(try migrator.rollback(store).map(\.migration.version) == [1])
        #expect(try store.read { db in try db.schema() }.isEmpty)
    }

    @Test("-- store:no-transaction files run outside a transaction, so VACUUM and journal_mode work")
    func noTransaction() throws {
        let migrator = try Migrator(
            folder: folder(
                withExamplesUpTo: 1,
                plus: [
                    "0002_vacuum.sql":
                        "-- store:no-transaction\nVACUUM;\nPRAGMA journal_mode = DELETE;\n-- down\nPRAGMA journal_mode = WAL;\n"
                ]))
        #expect(try migrator.migrate(store).map(\.migration.version) == [1, 2])
        #expect(try store.read { db in try db.fetchValue(String.self, sql: "PRAGMA journal_mode") } == "delete")
        #expect(try migrator.rollback(store).map(\.migration.version) == [2])
        #expect(try migrator.status(store).currentVersion == 1)
    }

    @Test("Planning changes nothing: no ledger is created")
    func planning() throws {
        let migrator = try Migrator(folder: folder())
        #expect(try migrator.pendingMigrations(store, to: 3).map(\.version) == [1, 2, 3])
        #expect(try migrator.migrationsToRollBack(store).isEmpty)
        #expect(try store.read { db in try db.fetchRows(sql: "SELECT name FROM sqlite_schema") }.isEmpty)
        try migrator.migrate(store)
        #expect(try migrator.migrationsToRollBack(store, to: 2).map(\.version) == [4, 3])
    }

    @Test("migrate inside a write of the same store throws instead of deadlocking")
    func reentrancy() throws {
        let migrator = try Migrator(folder: folder())
        #expect(throws: StoreError.self) {
            try store.write { _ in try migrator.migrate(store) }
        }
    }

    @Test("Migrators racing on one file, each with its own store, apply every migration exactly once")
    func concurrentMigrators() async throws {
        let seed = "INSERT INTO list (name) VALUES ('Inbox');"
        let migrator = try Migrator(folder: folder(plus: ["0005_seed.sql": seed]))
        for round in 0..<10 {
            let path = directory.path("race\(round).sqlite")
            // An empty WAL database: two connections switching a new file to WAL at once can get
            // SQLITE_BUSY from SQLite without a busy wait (a Store opening issue, not the migrator's).
            _ = try Store(path: path)
            let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        try migrator.migrate(Store(path: path)).map(\.migration.version)
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(applied.sorted() == [1, 2, 3, 4, 5], "round \(round)")
            let store = try Store(path: path)
            #expect(try await store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM list") } == 1)
        }
    }

    @Test("The schema replays into an empty database")
    func schemaReplays() throws {
        try Migrator(folder: folder()).migrate(store)
        try store.write { db in
            try db.execute(sql: "CREATE TRIGGER item_done AFTER UPDATE OF done ON item BEGIN SELECT 1; END")
            try db.execute(sql: "CREATE VIEW a_view AS SELECT * FROM list_summary")
        }
        let schema = try store.read { db in try db.schema() }
        #expect(schema.map(\.type) == ["table", "table", "index", "index", "index", "view", "view", "trigger"])
        let copy = try directory.makeStore(named: "copy.sqlite")
        try copy.write { db in try db.execute(script: schema.map { $0.sql + ";" }.joined(separator: "\n")) }
        #expect(try copy.read { db in try db.schema() } == schema)
    }
}
