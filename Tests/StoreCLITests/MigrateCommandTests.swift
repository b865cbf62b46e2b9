// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation
import SQLiteStoreCore
import Testing

/// `store migrate` end to end, on the built binary and real database files.
@Suite("store migrate")
struct MigrateCommandTests {
    @Test("A fresh database migrated to the end has the schema of the files' up sections, which replays")
    func freshDatabaseMatchesFiles() async throws {
        let project = try CLIProject()
        let migrated = try await project.store("migrate")
        #expect(migrated.exitCode == 0, "\(migrated)")
        let schema = try await project.store("schema").output

        let reference = project.folder.appendingPathComponent("reference.sqlite").path
        for name in try FileManager.default.contentsOfDirectory(atPath: project.migrationsFolder.path).sorted() {
            let text = try project.read(name)
            let up = text.components(separatedBy: "\n-- down\n").first ?? text
            try project.execute(up, database: reference)
        }
        #expect(try await project.store("schema", "--database", "reference.sqlite").output == schema)

        let replayed = project.folder.appendingPathComponent("replayed.sqlite").path
        try project.execute(schema, database: replayed)
        #expect(try await project.store("schema", "--database", "replayed.sqlite").output == schema)
        #expect(schema.contains("CREATE TABLE item") && schema.contains("CREATE VIEW list_summary"))
    }

    @Test("A failing third migration leaves schema and data exactly as after the second, and names file and line")
    func failingThirdMigration() async throws {
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
        let project = try CLIProject(examplesUpTo: 2, extra: ["0003_broken.sql": broken])
        #expect(try await project.store("migrate", "--to", "2").exitCode == 0)
        try project.insertListsAndItems()
        let schemaBefore = try await project.store("schema").output
        let before = try project.snapshot()

        let failed = try await project.store("migrate")
        #expect(failed.exitCode == 1, "\(failed)")
        #expect(failed.error.contains("Migrations/0003_broken.sql:7:"), "\(failed)")
        #expect(failed.error.contains("no such table: no_such_table"), "\(failed)")
        #expect(try await project.store("schema").output == schemaBefore)
        #expect(try project.snapshot() == before)
    }

    @Test("Two store migrate processes started at once apply each migration exactly once")
    func concurrentProcesses() async throws {
        let seed = "INSERT INTO list (name) VALUES ('Inbox');\n-- down\nDELETE FROM list WHERE name = 'Inbox';\n"
        let project = try CLIProject(extra: ["0005_seed.sql": seed])
        for round in 0..<5 {
            let database = "race\(round).sqlite"
            // An empty WAL database: two connections switching a new file to WAL at once can get
            // SQLITE_BUSY from SQLite without a busy wait (a Store opening issue, not the migrator's).
            _ = try Store(path: project.folder.appendingPathComponent(database).path)
            let first = try project.start("migrate", "--database", database, "--json")
            let second = try project.start("migrate", "--database", database, "--json")
            let results = try await [first.finish(), second.finish()]
            #expect(results.map(\.exitCode) == [0, 0], "round \(round): \(results)")
            let versions = try results.flatMap { result in
                (try result.json()["migrations"] as? [[String: Any]] ?? []).compactMap { $0["version"] as? Int }
            }
            #expect(versions.sorted() == [1, 2, 3, 4, 5], "round \(round): \(results)")
            let lists = try await Store(path: project.folder.appendingPathComponent(database).path)
                .read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM list") }
            #expect(lists == 1, "round \(round)")
        }
    }

    @Test("Rebuilding list, which item refers to with ON DELETE CASCADE, keeps every item")
    func tableRebuildKeepsChildRows() async throws {
        let project = try CLIProject()
        #expect(try await project.store("migrate", "--to", "2").exitCode == 0)
        try project.insertListsAndItems()
        let result = try await project.store("migrate")
        #expect(result.exitCode == 0, "\(result)")
        #expect(try project.value("SELECT count(*) FROM item") == 3)
        #expect(try project.value("SELECT count(*) FROM pragma_foreign_key_check") == 0)
        #expect(try project.value("SELECT done_count FROM list_summary WHERE list_id = 1") == 1)
    }

    @Test("--dry-run prints the SQL and changes nothing, not even creating the database")
    func dryRun() async throws {
        let project = try CLIProject()
        let fresh = try await project.store("migrate", "--dry-run")
        #expect(fresh.exitCode == 0, "\(fresh)")
        #expect(fresh.output.contains("Would apply Migrations/0001_create_list.sql"))
        #expect(fresh.output.contains("ALTER TABLE new_list RENAME TO list;"))
        #expect(!FileManager.default.fileExists(atPath: project.databasePath))

        #expect(try await project.store("migrate", "--to", "2").exitCode == 0)
        let before = try project.snapshot()
        let planned = try await project.store("migrate", "--dry-run", "--json").json()
        #expect((planned["migrations"] as? [[String: Any]])?.compactMap { $0["version"] as? Int } == [3, 4])
        #expect((planned["migrations"] as? [[String: Any]])?.allSatisfy { ($0["sql"] as? String)?.isEmpty == false } == true)
        #expect(try await project.store("down", "--dry-run").output.contains("DROP TABLE item;"))
        #expect(try project.snapshot() == before)
    }

    @Test("A transactional file with PRAGMA foreign_keys is warned about, with its line")
    func pragmaWarning() async throws {
        let project = try CLIProject(examplesUpTo: 1, extra: ["0002_pragma.sql": "CREATE TABLE a(x);\nPRAGMA foreign_keys = OFF;\n"])
        let text = try await project.store("migrate", "--dry-run")
        #expect(text.error.contains("warning: Migrations/0002_pragma.sql:2: PRAGMA foreign_keys does nothing"), "\(text)")
        let json = try await project.store("migrate", "--json").json()
        let warnings = json["warnings"] as? [[String: Any]]
        #expect(warnings?.first?["file"] as? String == "Migrations/0002_pragma.sql")
        #expect(warnings?.first?["line"] as? Int == 2)
    }
}
#endif
