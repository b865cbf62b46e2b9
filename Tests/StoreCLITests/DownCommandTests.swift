// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation
import Testing

/// `store down` end to end.
@Suite("store down")
struct DownCommandTests {
    @Test("down then migrate returns to the same schema, for one migration and for all")
    func downThenMigrate() async throws {
        let project = try CLIProject()
        #expect(try await project.store("migrate").exitCode == 0)
        let schema = try await project.store("schema").output

        let down = try await project.store("down")
        #expect(down.exitCode == 0, "\(down)")
        #expect(down.output.contains("Undid Migrations/0004_item_notes_and_summary.sql"))
        #expect(try await project.store("schema").output != schema)
        #expect(try await project.store("migrate").exitCode == 0)
        #expect(try await project.store("schema").output == schema)

        #expect(try await project.store("down", "--to", "0").exitCode == 0)
        #expect(try await project.store("schema").output.isEmpty)
        #expect(try await project.store("migrate").exitCode == 0)
        #expect(try await project.store("schema").output == schema)
    }

    @Test("down --to keeps the target; the rebuilt table gets its items back through the down section")
    func downToVersion() async throws {
        let project = try CLIProject()
        #expect(try await project.store("migrate").exitCode == 0)
        try project.insertListsAndItems()
        #expect(try await project.store("down", "--to", "2").exitCode == 0)
        #expect(try project.value("SELECT max(version) FROM store_migrations") == 2)
        #expect(try project.value("SELECT count(*) FROM item") == 3)
        #expect(try project.value("SELECT count(*) FROM pragma_table_info('list') WHERE name = 'position'") == 0)
    }

    @Test("A migration without a down section stops down before anything changes")
    func irreversible() async throws {
        let project = try CLIProject(extra: ["0005_forever.sql": "CREATE TABLE forever(x);\n"])
        #expect(try await project.store("migrate").exitCode == 0)
        let before = try project.snapshot()
        let down = try await project.store("down", "--to", "3")
        #expect(down.exitCode == 1)
        #expect(down.error.contains("Migrations/0005_forever.sql: has no down section"), "\(down)")
        #expect(try project.snapshot() == before)
    }

    @Test("down on a database that does not exist exits 3 and creates nothing")
    func missingDatabase() async throws {
        let project = try CLIProject()
        #expect(try await project.store("down").exitCode == 3)
        #expect(!FileManager.default.fileExists(atPath: project.databasePath))
    }
}
#endif
