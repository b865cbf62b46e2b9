// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation
import Testing

/// Every exit code of `store`, and their documentation in `store --help`.
@Suite("store exit codes")
struct ExitCodeTests {
    @Test("store --help documents exit codes 0 to 3 and exits 0")
    func help() async throws {
        let help = try await CLIProject().store("--help")
        #expect(help.exitCode == 0)
        #expect(help.output.contains("EXIT CODES"))
        for code in 0...3 { #expect(help.output.contains("\n  \(code)  "), "code \(code)") }
    }

    @Test("0 for success, 1 for a failed migration or a failed verification")
    func successAndFailure() async throws {
        let project = try CLIProject(extra: ["0005_bad.sql": "SELECT nonsense FROM nowhere;\n"])
        #expect(try await project.store("migrate", "--to", "4").exitCode == 0)
        #expect(try await project.store("status").exitCode == 0)
        #expect(try await project.store("verify").exitCode == 1)
        #expect(try await project.store("migrate").exitCode == 1)
    }

    @Test(
        "2 for bad usage",
        arguments: [
            ["migrate", "--bogus"], ["migrate", "--to", "x"], ["frobnicate"], ["create"], ["create", "no-dashes"],
            ["migrate", "--to", "99"], ["down", "--to", "99"],
        ])
    func badUsage(arguments: [String]) async throws {
        let project = try CLIProject()
        #expect(try await project.store("migrate", "--to", "1").exitCode == 0)
        let result = try await StoreBinary.start(arguments, in: project.folder).finish()
        #expect(result.exitCode == 2, "\(result)")
        #expect(!result.error.isEmpty)
    }

    @Test(
        "2 for a bad migrations folder",
        arguments: [
            ["0005_bad name.sql": "SELECT 1;"], ["5_again.sql": "SELECT 1;", "0005_twice.sql": "SELECT 2;"],
            ["0005_directive.sql": "-- store:no-transactions\nSELECT 1;"], ["init.sql": "SELECT 1;"],
        ])
    func badFolder(files: [String: String]) async throws {
        let project = try CLIProject(extra: files)
        for command in ["migrate", "status", "verify", "down"] {
            let result = try await project.store(command)
            #expect(result.exitCode == 2, "\(command): \(result)")
            #expect(result.error.contains("Migrations/"), "\(command): \(result)")
        }
    }

    @Test("2 for an unreadable file or a missing folder")
    func unreadable() async throws {
        let project = try CLIProject()
        try Data([0x43, 0xFF, 0xFE]).write(to: project.migrationsFolder.appendingPathComponent("0005_binary.sql"))
        let binary = try await project.store("migrate")
        #expect(binary.exitCode == 2 && binary.error.contains("0005_binary.sql: not UTF-8"), "\(binary)")
        #expect(try await project.store("status", "--migrations", "Nowhere").exitCode == 2)
    }

    @Test("3 when the database cannot be opened or is not a database")
    func databaseUnavailable() async throws {
        let project = try CLIProject()
        try Data("this is not a database, just text that is long enough".utf8)
            .write(to: project.folder.appendingPathComponent("text.sqlite"))
        try FileManager.default.createDirectory(
            at: project.folder.appendingPathComponent("folder.sqlite"), withIntermediateDirectories: true)
        for arguments in [
            ["migrate", "--database", "text.sqlite"], ["status", "--database", "text.sqlite"],
            ["migrate", "--database", "folder.sqlite"], ["migrate", "--database", "no/such/folder/db.sqlite"],
            ["schema", "--database", "missing.sqlite"],
        ] {
            let result = try await StoreBinary.start(arguments, in: project.folder).finish()
            #expect(result.exitCode == 3, "\(arguments): \(result)")
        }
    }
}
#endif
