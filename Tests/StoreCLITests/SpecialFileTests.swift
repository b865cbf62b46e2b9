#if os(Linux) || os(macOS)
import Foundation
import Testing

/// Special files where `store` expects regular ones: among the migrations they are refused
/// with what they are (exit 2), as the database they exit 3; nothing blocks on a FIFO.
@Suite("store and special files")
struct SpecialFileTests {
    enum Special: String, CaseIterable {
        case fifo, deviceLink, linkLoop, brokenLink

        /// Makes the special file at `path`.
        func make(at path: String) throws {
            switch self {
            case .fifo: #expect(mkfifo(path, 0o644) == 0)
            case .deviceLink: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
            case .linkLoop: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path)
            case .brokenLink: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path + ".gone")
            }
        }

        /// What the message must call it.
        var description: String {
            switch self {
            case .fifo: "a FIFO (named pipe)"
            case .deviceLink: "a symbolic link to a character device"
            case .linkLoop: "a symbolic link loop"
            case .brokenLink: "a symbolic link to a file that does not exist"
            }
        }
    }

    @Test("a special file among the migrations is refused with what it is", arguments: Special.allCases)
    func specialMigration(special: Special) throws {
        let project = try CLIProject(examplesUpTo: 1)
        let path = project.migrationsFolder.appendingPathComponent("0002_special.sql").path
        try special.make(at: path)
        for command in [["status"], ["migrate"], ["verify"]] {
            let result = try StoreBinary.start(command, in: project.folder).finish()
            #expect(result.exitCode == 2, "\(command): \(result)")
            #expect(result.error.contains("0002_special.sql") && result.error.contains(special.description), "\(command): \(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: project.databasePath))
    }

    @Test(
        "a database that is not a regular file exits 3 and says what it is",
        arguments: [
            ("/dev/null", "a character device"), ("fifo.sqlite", "a FIFO (named pipe)"), ("Migrations", "a folder"),
            ("loop.sqlite", "a symbolic link loop"),
        ])
    func specialDatabase(path: String, description: String) throws {
        let project = try CLIProject(examplesUpTo: 1)
        if path == "fifo.sqlite" { try Special.fifo.make(at: project.folder.appendingPathComponent(path).path) }
        if path == "loop.sqlite" { try Special.linkLoop.make(at: project.folder.appendingPathComponent(path).path) }
        let commands = [
            ["status"], ["verify"], ["schema"], ["migrate"], ["migrate", "--dry-run"], ["down"], ["watch", "--table", "item"],
        ]
        for command in commands {
            let result = try StoreBinary.start(command + ["--database", path], in: project.folder).finish()
            #expect(result.exitCode == 3, "\(command): \(result)")
            #expect(result.error.contains(description), "\(command): \(result)")
        }
    }
}

/// Arguments that are not UTF-8 (a Linux path is bytes) are refused with exit 2: `store`
/// never creates or reads another file than the one named.
@Suite("store and non-UTF-8 arguments")
struct NonUTF8ArgumentTests {
    /// Runs `store` through `sh`, whose `printf` makes the raw bytes `Process` cannot pass.
    private func store(_ shellArguments: String, in folder: URL) throws -> StoreResult {
        let process = Process()
        let errorURL = folder.appendingPathComponent(".stderr-sh")
        try Data().write(to: errorURL)
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" \(shellArguments)", StoreBinary.url.path]
        process.currentDirectoryURL = folder
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(at: errorURL) }
        return StoreResult(exitCode: process.terminationStatus, output: "", error: try String(contentsOf: errorURL, encoding: .utf8))
    }

    @Test("a database path that is not UTF-8 exits 2 and creates nothing", arguments: ["migrate", "status", "create x", "schema"])
    func databasePath(command: String) throws {
        let project = try CLIProject(examplesUpTo: 1)
        let before = try FileManager.default.contentsOfDirectory(atPath: project.folder.path).sorted()
        let result = try store("\(command) --database \"$(printf 'nouv\\351.sqlite')\"", in: project.folder)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.error.contains("nouv\\xE9.sqlite") && result.error.contains("not valid UTF-8"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.folder.path).sorted() == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.migrationsFolder.path).count == 1)
    }

    @Test("a migration file whose name is not UTF-8 is refused by name")
    func migrationFileName() throws {
        let project = try CLIProject(examplesUpTo: 1)
        let made = Process()
        made.executableURL = URL(fileURLWithPath: "/bin/sh")
        made.arguments = ["-c", "printf 'CREATE TABLE t(x);' > \"Migrations/$(printf '0002_caf\\351.sql')\""]
        made.currentDirectoryURL = project.folder
        try made.run()
        made.waitUntilExit()
        let result = try store("status", in: project.folder)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.error.contains("0002_caf") && result.error.contains("not valid UTF-8"), "\(result)")
    }
}
#endif
