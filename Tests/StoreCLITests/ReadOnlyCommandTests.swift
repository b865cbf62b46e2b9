#if os(Linux) || os(macOS)
import Foundation
import Testing

/// `status`, `verify`, `schema` and dry runs only read: they never create the database,
/// change its bytes, modification time or journal mode, leave `-wal`/`-shm` files behind, or
/// need write permission; an empty or foreign file is "not a database" (exit 3) and stays as it is.
@Suite("store read commands change nothing")
struct ReadOnlyCommandTests {
    static let readCommands: [[String]] = [["status"], ["verify"], ["schema"], ["migrate", "--dry-run"], ["down", "--dry-run"]]

    /// A project at version 2 of the examples whose database uses `journalMode`, written by `sqlite3`.
    private func project(journalMode: String) async throws -> CLIProject {
        let project = try CLIProject(examplesUpTo: 4)
        #expect(try await project.store("migrate", "--to", "2").exitCode == 0)
        let shell = try SQLiteShell(database: project.databasePath)
        #expect(try await shell.run("PRAGMA journal_mode = \(journalMode);") == [journalMode.lowercased()])
        return project
    }

    @Test("the folder stays byte for byte, mtimes and journal mode included", arguments: ["DELETE", "WAL"])
    func changesNothing(journalMode: String) async throws {
        let project = try await project(journalMode: journalMode)
        let before = try FolderState(project.folder)
        for command in Self.readCommands {
            let result = try await StoreBinary.start(command, in: project.folder).finish()
            #expect(result.exitCode == (command == ["verify"] ? 1 : 0), "\(command): \(result)")
            let after = try FolderState(project.folder)
            #expect(after == before, "\(command) left: \(after)")
        }
        #expect(try await SQLiteShell(database: project.databasePath).run("PRAGMA journal_mode;") == [journalMode.lowercased()])
    }

    @Test(
        "they work on a read-only file in a read-only folder, as an unprivileged user", .enabled(if: Unprivileged.launcher != nil),
        arguments: ["DELETE", "WAL"])
    func readOnlyFileAndFolder(journalMode: String) async throws {
        let project = try await project(journalMode: journalMode)
        let data = project.folder.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: false)
        let database = data.appendingPathComponent("store.sqlite").path
        try FileManager.default.moveItem(atPath: project.databasePath, toPath: database)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: database)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: data.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: project.folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: data.path) }
        let before = try FolderState(data)
        for command in Self.readCommands {
            let result = try await StoreBinary.start(
                command + ["--database", database], in: project.folder,
                launcher: Unprivileged.launcher ?? []
            ).finish()
            #expect(result.exitCode == (command == ["verify"] ? 1 : 0), "\(command): \(result)")
            #expect(!result.error.contains("readonly"), "\(command): \(result)")
            let after = try FolderState(data)
            #expect(after == before, "\(command) left: \(after)")
        }
        let status = try await StoreBinary.start(
            ["status", "--json", "--database", database], in: project.folder,
            launcher: Unprivileged.launcher ?? []
        ).finish()
        #expect(try status.json()["currentVersion"] as? Int == 2, "\(status)")
    }

    @Test(
        "an empty or foreign file is not a database: exit 3, and it stays as it was",
        arguments: [Data(), Data("hello, not a database\n".utf8), Data(repeating: 0, count: 4096)])
    func notADatabase(content: Data) async throws {
        let project = try CLIProject(examplesUpTo: 1)
        try content.write(to: URL(fileURLWithPath: project.databasePath))
        let before = try FolderState(project.folder)
        for command in Self.readCommands {
            let result = try await StoreBinary.start(command, in: project.folder).finish()
            #expect(result.exitCode == 3, "\(command): \(result)")
            #expect(result.error.contains("not a database") || result.error.contains("not an SQLite database"), "\(command): \(result)")
            #expect(try FolderState(project.folder) == before, "\(command)")
        }
    }

    @Test("a missing database is never created: status and verify see it empty, schema exits 3")
    func missingDatabase() async throws {
        let project = try CLIProject(examplesUpTo: 1)
        for command in Self.readCommands {
            let result = try await StoreBinary.start(command, in: project.folder).finish()
            let expected: Int32 =
                switch command[0] {
                case "status", "migrate": 0
                case "verify": 1
                default: 3
                }
            #expect(result.exitCode == expected, "\(command): \(result)")
            #expect(!FileManager.default.fileExists(atPath: project.databasePath), "\(command) created the database")
        }
    }
}
#endif
