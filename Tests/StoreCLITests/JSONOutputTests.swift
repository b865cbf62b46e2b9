// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation
import Testing

/// `--json`: one document on standard output with the fields the Migrations article (Sources/Store/SQLiteStoreCore.docc/Migrations.md) documents.
@Suite("store --json")
struct JSONOutputTests {
    static let commonFields: Set = ["command", "ok", "exitCode", "database", "migrationsFolder", "warnings"]

    func document(_ project: CLIProject, _ arguments: String...) async throws -> [String: Any] {
        let result = try await StoreBinary.start(arguments + ["--json"], in: project.folder).finish()
        let json = try result.json()
        #expect(Self.commonFields.isSubset(of: json.keys), "\(result)")
        #expect(json["exitCode"] as? Int == Int(result.exitCode))
        #expect(json["ok"] as? Bool == (result.exitCode == 0))
        #expect(json["command"] as? String == arguments.first)
        return json
    }

    @Test("migrate and down list their migrations with version, name, file, transaction and duration")
    func migrateAndDown() async throws {
        let project = try CLIProject()
        let migrate = try await document(project, "migrate")
        #expect(migrate["dryRun"] as? Bool == false)
        #expect(migrate["currentVersion"] as? Int == 4)
        let steps = try #require(migrate["migrations"] as? [[String: Any]])
        #expect(steps.map { $0["version"] as? Int } == [1, 2, 3, 4])
        #expect(steps[0]["name"] as? String == "create_list")
        #expect(steps[0]["file"] as? String == "Migrations/0001_create_list.sql")
        #expect(steps.allSatisfy { $0["transaction"] as? Bool == true && $0["durationMs"] is Int && $0["sql"] == nil })

        let down = try await document(project, "down", "--to", "2")
        #expect((down["migrations"] as? [[String: Any]])?.map { $0["version"] as? Int } == [4, 3])
        #expect(down["currentVersion"] as? Int == 2)
        #expect(down["target"] as? Int == 2)
    }

    @Test("status gives each migration's state, checksums, when and how long")
    func status() async throws {
        let project = try CLIProject()
        #expect(try await project.store("migrate", "--to", "1").exitCode == 0)
        let status = try await document(project, "status")
        #expect(status["currentVersion"] as? Int == 1)
        let entries = try #require(status["migrations"] as? [[String: Any]])
        #expect(entries.map { $0["state"] as? String } == ["applied", "pending", "pending", "pending"])
        let applied = entries[0]
        #expect((applied["checksum"] as? String)?.count == 64)
        #expect(applied["appliedChecksum"] as? String == applied["checksum"] as? String)
        #expect((applied["appliedAt"] as? String)?.hasSuffix("Z") == true)
        #expect(applied["durationMs"] is Int && applied["outOfOrder"] as? Bool == false)
        #expect(entries[1]["appliedAt"] == nil && entries[1]["file"] as? String == "Migrations/0002_create_item.sql")
    }

    @Test("verify lists differences; create gives the new file; schema gives each statement")
    func verifyCreateSchema() async throws {
        let project = try CLIProject()
        #expect(try await project.store("migrate", "--to", "3").exitCode == 0)
        let verify = try await document(project, "verify")
        #expect((verify["differences"] as? [[String: Any]])?.map { $0["state"] as? String } == ["pending"])
        #expect((verify["error"] as? [String: Any])?["kind"] as? String == "differences")

        let create = try await document(project, "create", "add_tags")
        #expect(create["path"] as? String == "Migrations/0005_add_tags.sql")
        #expect(create["version"] as? Int == 5 && create["name"] as? String == "add_tags")

        let schema = try await document(project, "schema")
        let statements = try #require(schema["statements"] as? [[String: Any]])
        #expect(statements.map { $0["type"] as? String } == ["table", "table", "index", "index", "index"])
        #expect(statements.first?["name"] as? String == "item" && statements.first?["table"] as? String == "item")
        #expect((schema["sql"] as? String)?.hasPrefix("CREATE TABLE item") == true)
    }

    @Test("A failed migration's error names file, line, statement and SQLite's codes")
    func migrationError() async throws {
        let project = try CLIProject(examplesUpTo: 1, extra: ["0002_bad.sql": "CREATE TABLE a(x);\n\nINSERT INTO a VALUES (1, 2);\n"])
        let migrate = try await document(project, "migrate")
        #expect((migrate["migrations"] as? [[String: Any]])?.count == 1)
        #expect(migrate["currentVersion"] as? Int == 1)
        let error = try #require(migrate["error"] as? [String: Any])
        #expect(error["kind"] as? String == "migrationFailed")
        #expect(error["file"] as? String == "Migrations/0002_bad.sql")
        #expect(error["line"] as? Int == 3 && error["version"] as? Int == 2)
        #expect(error["statement"] as? String == "INSERT INTO a VALUES (1, 2);")
        #expect(error["sqliteCode"] as? Int == 1 && error["rolledBack"] as? Bool == true)
        #expect((error["sqliteMessage"] as? String)?.contains("2 values") == true)
        #expect((error["message"] as? String)?.isEmpty == false)
    }

    @Test("Refusals list the migrations they are about; usage errors are JSON too")
    func refusalAndUsage() async throws {
        let project = try CLIProject()
        #expect(try await project.store("migrate").exitCode == 0)
        try project.write("0001_create_list.sql", try project.read("0001_create_list.sql") + "\n-- edited\n")
        let refused = try await document(project, "migrate")
        let error = try #require(refused["error"] as? [String: Any])
        #expect(error["kind"] as? String == "editedOrMissing")
        #expect((error["migrations"] as? [[String: Any]])?.map { $0["state"] as? String } == ["edited"])

        let usage = try await StoreBinary.start(["migrate", "--to", "three", "--json"], in: project.folder).finish()
        #expect(usage.exitCode == 2)
        #expect((try usage.json()["error"] as? [String: Any])?["kind"] as? String == "usage")
    }
}
#endif
