// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation
import Testing

/// `store create` and `store schema`.
@Suite("store create and schema")
struct CreateAndSchemaCommandTests {
    @Test("create writes the next numbered file with up and down sections, which then migrates")
    func create() async throws {
        let project = try CLIProject()
        let created = try await project.store("create", "add_tags")
        #expect(created.exitCode == 0)
        #expect(created.output == "Migrations/0005_add_tags.sql\n")
        let text = try project.read("0005_add_tags.sql")
        #expect(text.contains("\n-- down\n"))
        try project.write(
            "0005_add_tags.sql",
            text.replacingOccurrences(
                of: "\n\n\n-- down\n", with: "\nCREATE TABLE tag(name TEXT);\n\n-- down\nDROP TABLE tag;\n"))
        #expect(try await project.store("migrate").exitCode == 0)
        #expect(try await project.store("down").exitCode == 0)
        #expect(try await project.store("create", "again").output == "Migrations/0006_again.sql\n")
    }

    @Test("create in a folder that does not exist yet creates it and starts at 0001")
    func createFirst() async throws {
        let project = try CLIProject()
        let created = try await project.store("create", "first", "--migrations", "db/migrations")
        #expect(created.exitCode == 0)
        #expect(created.output == "db/migrations/0001_first.sql\n")
    }

    @Test("create keeps the width of existing version numbers")
    func createWidth() async throws {
        let project = try CLIProject(examplesUpTo: 0, extra: ["000007_seven.sql": "SELECT 1;\n"])
        #expect(try await project.store("create", "eight").output == "Migrations/000008_eight.sql\n")
    }

    @Test("schema prints tables, indexes, views and triggers in replayable order, without the ledger")
    func schema() async throws {
        let project = try CLIProject()
        #expect(try await project.store("migrate").exitCode == 0)
        try project.execute("CREATE TRIGGER item_touch AFTER UPDATE ON item BEGIN SELECT 1; END;")
        let schema = try await project.store("schema").output
        let order = [
            "CREATE TABLE item", "CREATE TABLE \"list\"", "CREATE INDEX item_due_date", "CREATE INDEX item_list_position",
            "CREATE INDEX list_position", "CREATE VIEW list_summary", "CREATE TRIGGER item_touch",
        ]
        let positions = order.compactMap { schema.range(of: $0)?.lowerBound }
        #expect(positions.count == order.count && positions == positions.sorted(), "\(schema)")
        #expect(!schema.contains("store_migrations"))
        let replayed = project.folder.appendingPathComponent("replayed.sqlite").path
        try project.execute(schema, database: replayed)
        #expect(try await project.store("schema", "--database", "replayed.sqlite").output == schema)
    }
}
#endif
