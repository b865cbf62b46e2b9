// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation
import Testing

/// `store status` and `store verify`, and how `migrate` treats edited, missing,
/// out-of-order and unknown migrations.
@Suite("store status and verify")
struct LedgerCommandTests {
    func states(_ project: CLIProject) async throws -> [String] {
        let migrations = try await project.store("status", "--json").json()["migrations"] as? [[String: Any]] ?? []
        return migrations.compactMap { $0["state"] as? String }
    }

    @Test("Status shows applied migrations with when and how long, and pending ones")
    func status() async throws {
        let project = try CLIProject()
        #expect(try await project.store("migrate", "--to", "3").exitCode == 0)
        let status = try await project.store("status")
        #expect(status.exitCode == 0)
        let lines = status.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("VERSION  STATE") == true)
        try #require(lines.count == 5, "a failed status must fail this test, not crash the test process")
        #expect(lines[3].contains("applied") && lines[3].contains("rebuild_list") && lines[3].contains(" ms"))
        #expect(lines[4].contains("pending") && lines[4].contains("item_notes_and_summary"))
    }

    @Test("CRLF-only edits are not edits; a real edit is reported by status, verify and migrate")
    func editedFile() async throws {
        let project = try CLIProject()
        #expect(try await project.store("migrate").exitCode == 0)
        let original = try project.read("0002_create_item.sql")
        for name in try FileManager.default.contentsOfDirectory(atPath: project.migrationsFolder.path) {
            try project.write(name, project.read(name).replacingOccurrences(of: "\n", with: "\r\n"))
        }
        await #expect(try states(project) == ["applied", "applied", "applied", "applied"])
        #expect(try await project.store("verify").exitCode == 0)
        #expect(try await project.store("migrate").exitCode == 0)

        try project.write("0002_create_item.sql", original.replacingOccurrences(of: "DEFAULT ''", with: "DEFAULT 'misc'"))
        await #expect(try states(project) == ["applied", "edited", "applied", "applied"])
        let verify = try await project.store("verify")
        #expect(verify.exitCode == 1)
        #expect(verify.output.contains("Migrations/0002_create_item.sql: changed since it was applied"), "\(verify)")
        let migrate = try await project.store("migrate")
        #expect(migrate.exitCode == 1)
        #expect(migrate.error.contains("Migrations/0002_create_item.sql") && migrate.error.contains("--allow-edited"), "\(migrate)")
        #expect(try await project.store("migrate", "--allow-edited").exitCode == 0)
    }

    @Test("A deleted file is missing: verify fails and migrate refuses unless --allow-edited")
    func missingFile() async throws {
        let project = try CLIProject(extra: ["0005_tags.sql": "CREATE TABLE tag(name TEXT);\n"])
        #expect(try await project.store("migrate", "--to", "4").exitCode == 0)
        try FileManager.default.removeItem(at: project.migrationsFolder.appendingPathComponent("0001_create_list.sql"))
        await #expect(try states(project) == ["missing", "applied", "applied", "applied", "pending"])
        #expect(try await project.store("verify").exitCode == 1)
        let refused = try await project.store("migrate")
        #expect(refused.exitCode == 1 && refused.error.contains("create_list"), "\(refused)")
        #expect(try project.value("SELECT count(*) FROM sqlite_schema WHERE name = 'tag'") == 0)
        #expect(try await project.store("migrate", "--allow-edited").exitCode == 0)
        #expect(try project.value("SELECT count(*) FROM sqlite_schema WHERE name = 'tag'") == 1)
    }

    @Test("A new file older than the newest applied one is refused unless --allow-out-of-order")
    func outOfOrder() async throws {
        let project = try CLIProject()
        try FileManager.default.removeItem(at: project.migrationsFolder.appendingPathComponent("0003_rebuild_list.sql"))
        #expect(try await project.store("migrate").exitCode == 0)
        try project.write("0003_tags.sql", "CREATE TABLE tag(name TEXT);\n-- down\nDROP TABLE tag;\n")
        let status = try await project.store("status", "--json").json()["migrations"] as? [[String: Any]]
        #expect(status?.first { $0["version"] as? Int == 3 }?["outOfOrder"] as? Bool == true)
        let refused = try await project.store("migrate")
        #expect(refused.exitCode == 1 && refused.error.contains("0003_tags.sql"), "\(refused)")
        #expect(try await project.store("migrate", "--allow-out-of-order").exitCode == 0)
        #expect(try await project.store("verify").exitCode == 0)
    }

    @Test("Versions in the ledger newer than every file are unknown, and verify reports them")
    func unknownVersions() async throws {
        let project = try CLIProject()
        #expect(try await project.store("migrate").exitCode == 0)
        try FileManager.default.removeItem(at: project.migrationsFolder.appendingPathComponent("0004_item_notes_and_summary.sql"))
        await #expect(try states(project) == ["applied", "applied", "applied", "unknown"])
        let verify = try await project.store("verify")
        #expect(verify.exitCode == 1 && verify.output.contains("newer than every migration file"), "\(verify)")
        #expect(try await project.store("migrate").exitCode == 0)
    }
}
#endif
