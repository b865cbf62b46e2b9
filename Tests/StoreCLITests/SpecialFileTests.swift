#if os(Linux) || os(macOS)
import Foundation
import TestSupport
import Testing

/// Special files where `store` expects regular ones: among the migrations they are refused
/// with what they are (exit 2, a folder named like a migration too), as the database they
/// exit 3; nothing blocks on a FIFO.
@Suite("store and special files")
struct SpecialFileTests {
    enum Special: String, CaseIterable {
        case fifo, deviceLink, linkLoop, brokenLink, folder, folderLink

        /// Makes the special file at `path`.
        func make(at path: String) async throws {
            switch self {
            case .fifo: #expect(mkfifo(path, 0o644) == 0)
            case .folder: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            case .folderLink: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: ".")
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
            case .folder: "a folder, not a migration file"
            case .folderLink: "a symbolic link to a folder"
            }
        }
    }

    @Test("a special file among the migrations is refused with what it is", arguments: Special.allCases)
    func specialMigration(special: Special) async throws {
        let project = try CLIProject(examplesUpTo: 1)
        let path = project.migrationsFolder.appendingPathComponent("0002_special.sql").path
        try await special.make(at: path)
        for command in [["status"], ["migrate"], ["verify"]] {
            let result = try await StoreBinary.start(command, in: project.folder).finish()
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
    func specialDatabase(path: String, description: String) async throws {
        let project = try CLIProject(examplesUpTo: 1)
        if path == "fifo.sqlite" { try await Special.fifo.make(at: project.folder.appendingPathComponent(path).path) }
        if path == "loop.sqlite" { try await Special.linkLoop.make(at: project.folder.appendingPathComponent(path).path) }
        let commands = [
            ["status"], ["verify"], ["schema"], ["migrate"], ["migrate", "--dry-run"], ["down"], ["watch", "--table", "item"],
        ]
        for command in commands {
            let result = try await StoreBinary.start(command + ["--database", path], in: project.folder).finish()
            #expect(result.exitCode == 3, "\(command): \(result)")
            #expect(result.error.contains(description), "\(command): \(result)")
        }
    }
}

/// A database at a path longer than SQLite accepts: SQLite says only "unable to open database
/// file"; `store` says the path is too long, and the limit.
@Suite("store and a database path longer than SQLite's limit")
struct LongDatabasePathTests {
    /// `folder`/ddd…/ddd…/name.sqlite, exactly `length` bytes once `folder`'s links are resolved
    /// (as SQLite resolves them), its folders made.
    static func path(in folder: URL, length: Int) async throws -> String {
        var path = try #require(
            realpath(folder.path, nil).map { resolved in
                defer { free(resolved) }
                return String(cString: resolved)
            })
        while length - path.utf8.count > 120 { path += "/" + String(repeating: "d", count: 100) }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        path += "/" + String(repeating: "n", count: length - path.utf8.count - 1 - ".sqlite".utf8.count) + ".sqlite"
        #expect(path.utf8.count == length)
        return path
    }

    @Test("a 598-byte path to a real database exits 3 saying the path is too long, and the limit")
    func realDatabase() async throws {
        let project = try CLIProject(examplesUpTo: 1)
        #expect(try await project.store("migrate").exitCode == 0)
        let long = try await Self.path(in: project.folder, length: 598)
        try FileManager.default.moveItem(atPath: project.databasePath, toPath: long)
        let commands = [
            ["status"], ["verify"], ["schema"], ["migrate"], ["migrate", "--dry-run"], ["down"], ["watch", "--table", "list"],
        ]
        for command in commands {
            let result = try await StoreBinary.start(command + ["--database", long], in: project.folder).finish()
            #expect(result.exitCode == 3, "\(command): \(result)")
            #expect(result.error.contains("is 598 bytes long") && result.error.contains("at most 504 bytes"), "\(command): \(result)")
        }
    }

    @Test("migrate refuses to create a database at a path that is too long, and creates nothing")
    func newDatabase() async throws {
        let project = try CLIProject(examplesUpTo: 1)
        let long = try await Self.path(in: project.folder, length: 505)
        let result = try await StoreBinary.start(["migrate", "--database", long], in: project.folder).finish()
        #expect(result.exitCode == 3, "\(result)")
        #expect(result.error.contains("is 505 bytes long"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: long))
        let fits = try await Self.path(in: project.folder, length: 504)
        #expect(try await project.store("migrate", "--database", fits).exitCode == 0)
    }
}

/// Arguments that are not UTF-8 (a Linux path is bytes) are refused with exit 2: `store`
/// never creates or reads another file than the one named.
@Suite("store and non-UTF-8 arguments")
struct NonUTF8ArgumentTests {
    /// Runs `store` through `sh`, whose `printf` makes the raw bytes `Process` cannot pass.
    private func store(_ shellArguments: String, in folder: URL) async throws -> StoreResult {
        let errorURL = folder.appendingPathComponent(".stderr-sh")
        try Data().write(to: errorURL)
        let process = try SpawnedProcess(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "exec \"$0\" \(shellArguments)", StoreBinary.url.path], in: folder,
            standardError: .handle(try FileHandle(forWritingTo: errorURL)))
        let exitCode = try await process.exited()
        defer { try? FileManager.default.removeItem(at: errorURL) }
        return StoreResult(exitCode: exitCode, output: "", error: try String(contentsOf: errorURL, encoding: .utf8))
    }

    @Test("a database path that is not UTF-8 exits 2 and creates nothing", arguments: ["migrate", "status", "create x", "schema"])
    func databasePath(command: String) async throws {
        let project = try CLIProject(examplesUpTo: 1)
        let before = try FileManager.default.contentsOfDirectory(atPath: project.folder.path).sorted()
        let result = try await store("\(command) --database \"$(printf 'nouv\\351.sqlite')\"", in: project.folder)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.error.contains("nouv\\xE9.sqlite") && result.error.contains("not valid UTF-8"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.folder.path).sorted() == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.migrationsFolder.path).count == 1)
    }

    @Test("a migration file whose name is not UTF-8 is refused by name")
    func migrationFileName() async throws {
        let project = try CLIProject(examplesUpTo: 1)
        let made = try SpawnedProcess(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "printf 'CREATE TABLE t(x);' > \"Migrations/$(printf '0002_caf\\351.sql')\""],
            in: project.folder)
        _ = try await made.exited()
        let result = try await store("status", in: project.folder)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.error.contains("0002_caf") && result.error.contains("not valid UTF-8"), "\(result)")
    }
}
#endif
