// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation
import Testing

/// `store watch` in text mode, its stopping signals, its refusals of bad input, and its
/// promise never to write to the database.
@Suite("store watch")
struct WatchCommandTests {
    @Test(
        "text mode shows the table, marks an external insert, and SIGINT or SIGTERM end it with 0",
        arguments: [SIGINT, SIGTERM])
    func textMode(signal: Int32) async throws {
        let folder = try WatchTestFolder()
        let shell = try SQLiteShell(database: folder.database)
        _ = try await shell.run(WatchJSONTests.schema + "INSERT INTO item (title, category, position) VALUES ('Milk', 'groceries', 1);")
        let watch = try WatchProcess(
            [
                "watch", "--database", folder.database, "--table", "item",
                "--section-by", "category", "--columns", "title",
            ], in: folder.url)
        #expect(try await watch.waitUntil { $0.contains { $0.contains("waiting for changes") } })
        _ = try await shell.run("INSERT INTO item (title, category, position) VALUES ('Report', 'work', 1);")
        #expect(try await watch.waitUntil { $0.contains { $0.contains("(external)") } })
        let lines = watch.lines(from: 0)
        #expect(lines.contains { $0.hasPrefix("── work (1) ") })
        #expect(lines.contains { $0.hasPrefix("+  2      Report") }, "\(lines)")
        watch.signal(signal)
        let end = try await watch.finish()
        #expect(end.exitCode == 0, "\(end.error)")
    }

    @Test(
        "bad input exits 2 or 3 with one line naming what is wrong",
        arguments: [
            (["--table", "nope"], 2, "no table 'nope'"),
            (["--table", "item", "--columns", "title,bogus"], 2, "no column 'bogus'"),
            (["--table", "item", "--order-by", "bogus:desc"], 2, "no column 'bogus'"),
            (["--table", "item", "--order-by", "title:sideways"], 2, "asc or desc"),
            (["--table", "item", "--section-by", "bogus"], 2, "no column 'bogus'"),
            (["--table", "item", "--where", "done = = 1"], 2, "syntax error"),
            (["--table", "item", "--where", "missing_column > 1"], 2, "no such column: missing_column"),
            // Echoed SQL with line breaks stays on one line: the breaks are escaped.
            (["--table", "item", "--where", "done = =\n1"], 2, "done = =\\n1"),
            (["--table", "item", "--where", "missing_column\r\n> 1\u{2028}"], 2, "missing_column\\r\\n> 1\\u2028"),
            (["--table", "item", "--where", "1); DELETE FROM item; --"], 2, "not several statements"),
            (["--table", "item", "--where", "title = ?"], 2, "parameters"),
            (["--table", "item_view"], 2, "is a view"),
            (["--table", "pairs"], 2, "WITHOUT ROWID"),
            (["--table", "item", "--database", "missing.sqlite"], 3, "missing.sqlite does not exist"),
            (["--table", "item", "--database", "text.sqlite"], 3, "not an SQLite database"),
            (["--table", "item", "--database", "empty.sqlite"], 3, "empty"),
        ] as [([String], Int32, String)])
    func badInput(arguments: [String], exitCode: Int32, message: String) async throws {
        let folder = try WatchTestFolder()
        let shell = try SQLiteShell(database: folder.database)
        _ = try await shell.run(
            WatchJSONTests.schema + """
                CREATE VIEW item_view AS SELECT * FROM item;
                CREATE TABLE pairs (a TEXT PRIMARY KEY, b) WITHOUT ROWID;
                """)
        try Data("hello, not a database\n".utf8).write(to: folder.url.appendingPathComponent("text.sqlite"))
        try Data().write(to: folder.url.appendingPathComponent("empty.sqlite"))
        for json in [false, true] {
            let watch = try WatchProcess(["watch", "--database", folder.database] + arguments + (json ? ["--json"] : []), in: folder.url)
            try watch.closeInput()
            let end = try await watch.finish()
            #expect(end.exitCode == exitCode, "\(arguments): \(end.error)")
            #expect(end.error.contains(message), "\(arguments): \(end.error)")
            #expect(end.error.split(whereSeparator: \.isNewline).count == 1, "\(arguments): \(end.error)")
            if json {
                let line = try #require(watch.lines(from: 0).first)
                #expect(line.contains("\"type\":\"error\"") && line.contains("\"exitCode\":\(exitCode)"), "\(line)")
            }
        }
    }

    @Test("a table dropped while watched ends watch with exit 1 and a message naming it")
    func droppedTable() async throws {
        let folder = try WatchTestFolder()
        let shell = try SQLiteShell(database: folder.database)
        _ = try await shell.run(WatchJSONTests.schema + "INSERT INTO item (title, position) VALUES ('a', 1);")
        let watch = try WatchProcess(["watch", "--database", folder.database, "--table", "item", "--json"], in: folder.url)
        #expect(try await watch.waitUntil { !$0.isEmpty })
        _ = try await shell.run("DROP TABLE item;")
        let failed = try await watch.waitUntil { $0.contains { $0.contains("\"type\":\"error\"") } }
        #expect(failed, "\(watch.lines(from: 0))")
        if !failed { watch.signal(SIGTERM) }
        let end = try await watch.finish()
        #expect(end.exitCode == 1, "\(end.error)")
        #expect(end.error.contains("no such table: item"), "\(end.error)")
    }

    @Test("watching never writes: the file's bytes, modification time and journal mode stay", arguments: ["DELETE", "WAL"])
    func neverWrites(journalMode: String) async throws {
        let folder = try WatchTestFolder()
        do {
            let shell = try SQLiteShell(database: folder.database)
            _ = try await shell.run(
                "PRAGMA journal_mode = \(journalMode);"
                    + WatchJSONTests.schema.replacingOccurrences(of: "PRAGMA journal_mode = WAL;", with: "")
                    + "INSERT INTO item (title, position) VALUES ('a', 1), ('b', 2);")
        }
        let before = try DatabaseFileState(folder.database)
        let json = try WatchProcess(["watch", "--database", folder.database, "--table", "item", "--json"], in: folder.url)
        #expect(try await json.waitUntil { !$0.isEmpty })
        try json.closeInput()
        #expect(try await json.finish().exitCode == 0)
        let text = try WatchProcess(["watch", "--database", folder.database, "--table", "item"], in: folder.url)
        #expect(try await text.waitUntil { $0.contains { $0.contains("waiting for changes") } })
        text.signal(SIGTERM)
        #expect(try await text.finish().exitCode == 0)
        #expect(try DatabaseFileState(folder.database) == before)
        #expect(try await SQLiteShell(database: folder.database).run("PRAGMA journal_mode;") == [journalMode.lowercased()])
    }
}

/// What watching must not change about a database file.
struct DatabaseFileState: Equatable {
    let bytes: Data
    let modified: Date?

    init(_ path: String) throws {
        bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    }
}
#endif
