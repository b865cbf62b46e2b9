// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation
@testable import StoreCLI
import Testing

/// `store demo`: the scripted session, reuse of its database, the built-in schema, and typed edits.
@Suite("store demo")
struct DemoCommandTests {
    @Test("ends by itself with exit 0, showing each change set applied and the view model following its item")
    func scripted() async throws {
        let folder = try WatchTestFolder()
        let result = try await StoreBinary.start(["demo"], in: folder.url).finish()
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.output.contains("applied 6 migrations (built-in example schema)"), "\(result)")
        #expect(appliedChangeSets(in: result.output) == 10, "\(result)")
        #expect(result.output.contains("sectionInserts: [0]"))
        #expect(result.output.contains("moves: [2.0→1.0 changed]"), "a row moved by a change of its category is marked changed")
        #expect(result.output.contains("# #3 Report  (position 1)"), "\(result)")
        #expect(result.output.contains("view model: \"Oat milk\" in Demo · done · 2 updates"), "\(result)")
        #expect(result.output.contains("9 change sets applied to the list view (0 that did not fit, 1 full load)"))
        #expect(result.output.contains("saw its item deleted; 0 commands failed."))
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("demo.sqlite").path))
    }

    @Test("renaming a list moves its items live to the renamed section, and the view model follows the list's name")
    func listRename() async throws {
        let folder = try WatchTestFolder()
        let result = try await StoreBinary.start(["demo"], in: folder.url).finish()
        #expect(result.exitCode == 0, "\(result)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let rename = try #require(lines.firstIndex { $0.hasPrefix("▶ rename list #") && $0.hasSuffix("to \"Chores\"") }, "\(result)")
        let before = lines[..<rename].suffix(10)
        let after = lines[rename...].prefix(11)
        #expect(before.first?.hasPrefix("lists \"Demo\" and \"Errands\", sectioned by list name") == true, "\(result)")
        #expect(before.filter { $0.hasPrefix("  [") } == ["  [Demo]", "  [Errands]"], "\(result)")
        #expect(after.filter { $0.hasPrefix("  [") } == ["  [Chores]", "  [Demo]"], "\(result)")
        #expect(after.contains { $0.contains("change set ChangeSet(") && $0.contains("applied to the list view") }, "\(result)")
        #expect(
            Array(after.drop { $0 != "  [Chores]" }.dropFirst().prefix(2)).allSatisfy { $0.contains("Parcel") || $0.contains("Stamps") })
        #expect(before.contains("  view model: \"Stamps\" in Errands · open · 0 updates"), "\(result)")
        #expect(after.contains("  view model: \"Stamps\" in Chores · open · 1 update"), "\(result)")
    }

    @Test(
        "without --server, the sync scene says whether PostgreSQL is installed, how to start a sync server that shares lists, and how to make both tokens"
    )
    func syncInstructions() async throws {
        let folder = try WatchTestFolder()
        let result = try await StoreBinary.start(["demo"], in: folder.url).finish()
        #expect(result.exitCode == 0, "\(result)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("sync: the sync scene needs a sync server") }, "\(result)")
        let bundled = try #require(DemoMigrations.folder?.path)
        #expect(
            lines[start + 1].contains(
                DemoSyncInstructions.postgreSQLTools() == nil ? "PostgreSQL is not installed" : "PostgreSQL is installed"))
        for (offset, account) in [(3, "ana"), (4, "ben")] {
            #expect(
                lines[start + offset].hasSuffix(
                    "swift run --package-path Server sync-server add-token --postgres postgres://USER@127.0.0.1/store_demo --account \(account)"
                ), "\(result)")
        }
        #expect(
            lines[start + 5].hasSuffix(
                "--port 8080 --migrations \(bundled) --tables note,note_list --share-roots note_list --share-paths note.list_id=note_list"),
            "\(result)")
        #expect(
            lines[start + 6].hasSuffix(
                "swift run --package-path Server store demo --server http://127.0.0.1:8080 --token TOKEN_A --second-account ben --second-token TOKEN_B"
            ), "the Server package's store has the scene: \(result)")
        #expect(lines[start + 7].contains("the Server package builds store with the scene"), "\(result)")
        #expect(lines[start + 8].hasPrefix("done in "), "the summary follows")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("demo.person-a.sqlite").path))
    }

    @Test(
        "--server, --token, --second-account and --second-token go together, and --server is an http URL: exit 2 before anything runs",
        arguments: [
            ["--server", "http://127.0.0.1:8080"], ["--token", "t"],
            ["--server", "http://127.0.0.1:8080", "--token", "t"],
            ["--server", "http://127.0.0.1:8080", "--token", "t", "--second-token", "u"],
            ["--server", "ftp://host", "--token", "t", "--second-account", "ben", "--second-token", "u"],
        ])
    func syncUsage(arguments: [String]) async throws {
        let folder = try WatchTestFolder()
        let result = try await StoreBinary.start(["demo"] + arguments, in: folder.url).finish()
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.error.contains("--server"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("demo.sqlite").path))
    }

    @Test("reuses its database, and takes --database and the Migrations folder")
    func reuse() async throws {
        let project = try CLIProject()
        let first = try await project.store("demo", "--database", "mine.sqlite")
        #expect(first.exitCode == 0, "\(first)")
        #expect(first.output.contains("applied 4 migrations (from Migrations/)"), "\(first)")
        let second = try await project.store("demo", "--database", "mine.sqlite")
        #expect(second.exitCode == 0, "\(second)")
        #expect(second.output.contains("schema up to date"), "\(second)")
        #expect(appliedChangeSets(in: second.output) == 10, "\(second)")
        #expect(second.output.contains("view model: \"Stamps\" in Chores · open · 1 update"), "\(second)")
    }

    @Test("--interactive applies typed edits, reports what it cannot do, and ends at quit")
    func interactive() async throws {
        let folder = try WatchTestFolder()
        let demo = try WatchProcess(["demo", "--interactive"], in: folder.url)
        try demo.send("add admin Renew passport\nmove 3 work 0\nfrobnicate\ndelete 99\nquit\n")
        let end = try await demo.finish()
        let output = demo.lines(from: 0).joined(separator: "\n")
        #expect(end.exitCode == 0, "\(end.error)")
        #expect(output.contains("change set ChangeSet(sectionInserts: [0])"), "\(output)")
        #expect(output.contains("+ #6 Renew passport"), "\(output)")
        #expect(output.contains("not understood: frobnicate"), "\(output)")
        #expect(output.contains("the list has no item #99"), "\(output)")
        #expect(output.contains("1 command failed."), "\(output)")
    }

    /// How many lines of `output` report a change set applied to the list view.
    private func appliedChangeSets(in output: String) -> Int {
        output.split(separator: "\n").filter { $0.contains("change set ChangeSet(") && $0.contains("applied to the list view") }.count
    }

    @Test("the built-in example schema is the Migrations folder, byte for byte")
    func bundledMigrations() async throws {
        let bundled = try #require(DemoMigrations.folder, "no Migrations in the store binary's resource bundle")
        let names = { (folder: URL) in
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.sorted()
        }
        let files = try names(CLIProject.examplesFolder)
        #expect(try names(bundled) == files)
        #expect(files.count == 6)
        for name in files {
            let copy = try Data(contentsOf: bundled.appendingPathComponent(name))
            #expect(copy == (try Data(contentsOf: CLIProject.examplesFolder.appendingPathComponent(name))), "\(name)")
        }
    }
}
#endif
