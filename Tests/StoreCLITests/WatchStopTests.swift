#if os(Linux) || os(macOS)
import Foundation
import Testing

/// How `store watch` ends and what it may read: a signal interrupts a running query, the end of
/// standard input comes after the initial line, no `-wal`/`-shm` file is left behind, and
/// `--where` reads only the watched table.
@Suite("store watch stopping and limits")
struct WatchStopTests {
    /// A condition whose query never ends: a recursive CTE without a limit.
    static let endlessCondition = "(WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c) > 0"

    private func folder(journalMode: String = "WAL") async throws -> WatchTestFolder {
        let folder = try WatchTestFolder()
        let shell = try SQLiteShell(database: folder.database)
        _ = try await shell.run(
            "PRAGMA journal_mode = \(journalMode);" + WatchJSONTests.schema.replacingOccurrences(of: "PRAGMA journal_mode = WAL;", with: "")
                + """
                INSERT INTO item (title, position) VALUES ('a', 1), ('b', 2);
                CREATE TABLE secret (id INTEGER PRIMARY KEY, code TEXT);
                INSERT INTO secret (code) VALUES ('hunter2');
                CREATE VIEW secret_view AS SELECT id FROM secret;
                """)
        return folder
    }

    @Test("SIGINT or SIGTERM interrupt an endless query and exit 0", arguments: [SIGINT, SIGTERM])
    func signalInterruptsQuery(signal: Int32) async throws {
        let folder = try await folder()
        for json in [false, true] {
            let watch = try WatchProcess(
                ["watch", "--database", folder.database, "--table", "item", "--where", Self.endlessCondition]
                    + (json ? ["--json"] : []), in: folder.url)
            #expect(try await watch.waitUntilHandling(signal))
            try await Task.sleep(for: .milliseconds(500))  // let the query start
            watch.signal(signal)
            let exited = try await watch.waitForExit()
            #expect(exited, "watch ignored the signal while its query ran")
            guard exited else { continue }
            let end = try await watch.finish()
            #expect(end.exitCode == 0, "\(end.error)")
            #expect(watch.lines(from: 0).isEmpty)
        }
    }

    @Test("--json with standard input at its end prints the initial line first, every time")
    func initialLineBeforeEndOfInput() async throws {
        let folder = try await folder()
        for run in 0..<20 {
            let watch = try WatchProcess(
                ["watch", "--database", folder.database, "--table", "item", "--json"], in: folder.url,
                standardInput: FileHandle.nullDevice)
            #expect(try await watch.waitForExit())
            let end = try await watch.finish()
            #expect(end.exitCode == 0, "run \(run): \(end.error)")
            #expect(watch.lines(from: 0) == [#"{"type":"initial","sections":[{"name":null,"ids":[1,2]}]}"#], "run \(run)")
        }
    }

    @Test("a watch leaves no -wal or -shm file that was not there, and changes nothing", arguments: ["DELETE", "WAL"])
    func leavesNoFiles(journalMode: String) async throws {
        let folder = try await folder(journalMode: journalMode)
        let before = try FolderState(folder.url)
        #expect(before.files.keys.sorted() == ["watch.sqlite"])
        let json = try WatchProcess(["watch", "--database", folder.database, "--table", "item", "--json"], in: folder.url)
        #expect(try await json.waitUntil { !$0.isEmpty })
        try json.closeInput()
        #expect(try await json.waitForExit())
        let text = try WatchProcess(["watch", "--database", folder.database, "--table", "item"], in: folder.url)
        #expect(try await text.waitUntil { $0.contains { $0.contains("waiting for changes") } })
        text.signal(SIGINT)
        #expect(try await text.waitForExit())
        let endOfInput = try WatchProcess(
            ["watch", "--database", folder.database, "--table", "item", "--json"], in: folder.url,
            standardInput: FileHandle.nullDevice)
        #expect(try await endOfInput.waitForExit())
        let interrupted = try WatchProcess(
            ["watch", "--database", folder.database, "--table", "item", "--where", Self.endlessCondition],
            in: folder.url)
        #expect(try await interrupted.waitUntilHandling(SIGTERM))
        interrupted.signal(SIGTERM)  // at once: a signal sent as the watch starts must stop it too
        #expect(try await interrupted.waitForExit())
        #expect(try await interrupted.finish().exitCode == 0)
        let after = try FolderState(folder.url)
        #expect(after == before, "left: \(after)")
    }

    @Test(
        "--where may read only the watched table",
        arguments: [
            "1 = 1) UNION SELECT id FROM secret WHERE (1",
            "EXISTS (SELECT 1 FROM secret WHERE code LIKE 'h%')",
            "id IN (SELECT id FROM secret_view)",
            "id IN (SELECT rowid FROM sqlite_schema)",
        ])
    func whereReadsOnlyWatchedTable(condition: String) async throws {
        let folder = try await folder()
        let watch = try WatchProcess(
            ["watch", "--database", folder.database, "--table", "item", "--where", condition, "--json"],
            in: folder.url, standardInput: FileHandle.nullDevice)
        #expect(try await watch.waitForExit())
        let end = try await watch.finish()
        #expect(end.exitCode == 2, "\(end.error)")
        #expect(end.error.contains("may read only the watched table item"), "\(end.error)")
        #expect(!watch.lines(from: 0).contains { $0.contains("initial") })
    }

    @Test("--where may use subqueries on the watched table itself, and --help says what it may read")
    func whereOnWatchedTable() async throws {
        let folder = try await folder()
        let watch = try WatchProcess(
            [
                "watch", "--database", folder.database, "--table", "ITEM", "--json",
                "--where", "position > (SELECT min(position) FROM main.item)",
            ],
            in: folder.url, standardInput: FileHandle.nullDevice)
        #expect(try await watch.waitForExit())
        #expect(try await watch.finish().exitCode == 0)
        #expect(watch.lines(from: 0) == [#"{"type":"initial","sections":[{"name":null,"ids":[2]}]}"#])
        let help = try await StoreBinary.start(["watch", "--help"], in: folder.url).finish()
        let words = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("it may read only the watched table"), "\(help.output)")
    }
}
#endif
