// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation
import Testing

/// `store watch` sorted and sectioned by a column of a related row (`list.name`), resolved
/// through the watched table's foreign keys, while another process writes both tables.
@Suite("store watch across a foreign key")
struct WatchRelationshipTests {
    static let schema = """
        PRAGMA journal_mode = WAL;
        CREATE TABLE list (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE item (id INTEGER PRIMARY KEY, title TEXT NOT NULL,
                           list_id INTEGER REFERENCES list(id) ON DELETE CASCADE,
                           author_id INTEGER REFERENCES person(id), editor_id INTEGER REFERENCES person(id));
        INSERT INTO list (id, name) VALUES (1, 'Home'), (2, 'Work');
        INSERT INTO item (id, title, list_id) VALUES (1, 'Milk', 1), (2, 'Bread', 1), (3, 'Report', 2), (4, 'Slides', 2);
        """

    /// The items in the watch's order, sectioned by their list's name, as SQL computes it.
    static let expectedSQL = """
        SELECT item.id, quote(list.name) FROM item LEFT JOIN list ON list.id = item.list_id
        ORDER BY list.name, item.title, item.id;
        """

    @Test(
        "a list renamed, an item moved and a list deleted by another process move the items' rows and sections",
        arguments: ["list.name", "list_id.name", "LIST.Name"])
    func renameMovesSections(path: String) async throws {
        let folder = try WatchTestFolder()
        let shell = try SQLiteShell(database: folder.database)
        _ = try await shell.run(Self.schema)
        let watch = try WatchProcess(
            ["watch", "--database", folder.database, "--table", "item", "--order-by", "\(path),title", "--section-by", path, "--json"],
            in: folder.url)
        var consumer = WatchJSONConsumer()
        var applied = 0
        func converges() async throws -> Bool {
            let expected = WatchJSONConsumer.sections(fromQuotedRows: try await shell.run(Self.expectedSQL), named: true)
            return try await watch.waitUntil { lines in
                for line in lines.dropFirst(applied) { try consumer.apply(line) }
                applied = lines.count
                return consumer.sections == expected
            }
        }
        await #expect(try converges())
        #expect(consumer.sections.map(\.name) == ["Home", "Work"])
        _ = try await shell.run("UPDATE list SET name = 'Errands' WHERE id = 2;")
        await #expect(try converges(), "\(watch.lines(from: 0))")
        #expect(consumer.sections == [.init(name: "Errands", ids: [3, 4]), .init(name: "Home", ids: [2, 1])])
        #expect(consumer.changeCount == 1)
        _ = try await shell.run("UPDATE item SET list_id = 2 WHERE id = 1; INSERT INTO item (id, title) VALUES (5, 'Loose');")
        await #expect(try converges(), "\(watch.lines(from: 0))")
        _ = try await shell.run("DELETE FROM list WHERE id = 1;")
        await #expect(try converges(), "\(watch.lines(from: 0))")
        #expect(consumer.sections.map(\.name) == [nil, "Errands"])
        try watch.closeInput()
        #expect(try await watch.finish().exitCode == 0)
    }

    @Test("text mode heads sections with the related value and names the path in its title")
    func textMode() async throws {
        let folder = try WatchTestFolder()
        let shell = try SQLiteShell(database: folder.database)
        _ = try await shell.run(Self.schema)
        let watch = try WatchProcess(
            ["watch", "--database", folder.database, "--table", "item", "--section-by", "list.name", "--columns", "title"],
            in: folder.url)
        #expect(try await watch.waitUntil { $0.contains { $0.contains("waiting for changes") } })
        _ = try await shell.run("UPDATE list SET name = 'Chores' WHERE id = 1;")
        #expect(try await watch.waitUntil { $0.contains { $0.hasPrefix("── Chores (2) ") } }, "\(watch.lines(from: 0))")
        #expect(watch.lines(from: 0).contains { $0.contains("sections by list.name") })
        watch.signal(SIGTERM)
        #expect(try await watch.finish().exitCode == 0)
    }

    @Test(
        "an unknown or ambiguous prefix, or an unknown related column, exits 2 listing the candidates",
        arguments: [
            (["--order-by", "lists.name"], "'lists' names no foreign key of item (use one of: author_id, editor_id, list, list_id)"),
            (["--section-by", "person.name"], "'person' is ambiguous: 2 foreign keys of item refer to person; name the column"),
            (["--order-by", "list.title"], "table list has no column 'title'"),
            (["--order-by", ".name"], "table item has no column '.name'"),
            (["--columns", "list.name"], "--columns: table item has no column 'list.name'"),
        ] as [([String], String)])
    func badPaths(arguments: [String], message: String) async throws {
        let folder = try WatchTestFolder()
        let shell = try SQLiteShell(database: folder.database)
        _ = try await shell.run(Self.schema)
        let watch = try WatchProcess(["watch", "--database", folder.database, "--table", "item", "--json"] + arguments, in: folder.url)
        try watch.closeInput()
        #expect(try await watch.waitForExit(), "\(arguments) did not exit")
        let end = try await watch.finish()
        #expect(end.exitCode == 2, "\(arguments): \(end.error)")
        #expect(end.error.contains(message), "\(arguments): \(end.error)")
    }

    @Test("--where still may read only the watched table, also beside a related sort key")
    func whereStaysOnTheTable() async throws {
        let folder = try WatchTestFolder()
        let shell = try SQLiteShell(database: folder.database)
        _ = try await shell.run(Self.schema)
        let watch = try WatchProcess(
            [
                "watch", "--database", folder.database, "--table", "item", "--order-by", "list.name",
                "--where", "list_id IN (SELECT id FROM list)", "--json",
            ], in: folder.url)
        try watch.closeInput()
        #expect(try await watch.waitForExit(), "watch did not exit")
        let end = try await watch.finish()
        #expect(end.exitCode == 2, "\(end.error)")
        #expect(end.error.contains("may read only the watched table item"), "\(end.error)")
    }
}
#endif
