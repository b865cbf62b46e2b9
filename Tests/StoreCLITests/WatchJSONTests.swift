// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation
import TestSupport
import Testing

/// `store watch --json` against a database that `sqlite3`, another process, writes in random
/// transactions: applying the change lines must reproduce the query's results.
@Suite("store watch --json", .serialized)
struct WatchJSONTests {
    static let schema = """
        PRAGMA journal_mode = WAL;
        CREATE TABLE item (id INTEGER PRIMARY KEY, title TEXT NOT NULL, category TEXT,
                           position INTEGER NOT NULL, done INTEGER NOT NULL DEFAULT 0);
        """

    @Test("applying the change lines reproduces the query after every quiescent point, over 520 random transactions")
    func randomTransactions() async throws {
        let seed = ProcessInfo.processInfo.environment["WATCH_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64(UInt32.max))
        var random = SeededGenerator(seed: seed)
        let folder = try WatchTestFolder()
        let shell = try SQLiteShell(database: folder.database)
        _ = try await shell.run(Self.schema)
        var writes = RandomItemWrites()
        _ = try await shell.run((0..<30).map { _ in writes.insert(&random) }.joined(separator: "\n"))
        let watch = try WatchProcess(
            [
                "watch", "--database", folder.database, "--table", "item", "--where", "done = 0",
                "--order-by", "position", "--section-by", "category", "--json",
            ], in: folder.url)
        let expectedSQL = "SELECT id, quote(category) FROM item WHERE done = 0 ORDER BY category, position, id;"
        var consumer = WatchJSONConsumer()
        var applied = 0
        var transactions = 0
        var checkpoints = 0
        var previous: [WatchJSONConsumer.Section]?
        var changedCheckpoints = 0
        while transactions < 520 {
            let batch = Int(random.next(below: 12)) + 1
            for _ in 0..<batch {
                let statements = (0..<(Int(random.next(below: 4)) + 1)).map { _ in writes.statement(&random) }
                _ = try await shell.run("BEGIN;\n" + statements.joined(separator: "\n") + "\nCOMMIT;")
            }
            transactions += batch
            let expected = WatchJSONConsumer.sections(fromQuotedRows: try await shell.run(expectedSQL), named: true)
            let converged = try await watch.waitUntil { lines in
                for line in lines.dropFirst(applied) { try consumer.apply(line) }
                applied = lines.count
                return consumer.sections == expected
            }
            #expect(converged, "seed \(seed), after \(transactions) transactions: \(consumer.sections) instead of \(expected)")
            guard converged else { break }
            checkpoints += 1
            if previous != nil, previous != expected { changedCheckpoints += 1 }
            previous = expected
        }
        try watch.closeInput()
        let end = try await watch.finish()
        #expect(end.exitCode == 0, "seed \(seed): \(end.error)")
        // Transactions that arrive together may come as one change line, but every checkpoint
        // whose results differ from the previous one's needs one of its own.
        #expect(
            consumer.changeCount >= changedCheckpoints,
            "seed \(seed): \(consumer.changeCount) change lines for \(changedCheckpoints) changed checkpoints")
        #expect(checkpoints > 40 && changedCheckpoints > 30, "seed \(seed): \(checkpoints) checkpoints, \(changedCheckpoints) with changes")
    }

    @Test("a flat list (no sections) in descending order, and ends when standard input closes")
    func flatDescending() async throws {
        let seed = UInt64.random(in: 0...UInt64(UInt32.max))
        var random = SeededGenerator(seed: seed)
        let folder = try WatchTestFolder()
        let shell = try SQLiteShell(database: folder.database)
        _ = try await shell.run(Self.schema)
        var writes = RandomItemWrites()
        let watch = try WatchProcess(
            [
                "watch", "--database", folder.database, "--table", "ITEM", "--order-by", "position:desc",
                "--columns", "title,position", "--json",
            ], in: folder.url)
        var consumer = WatchJSONConsumer()
        var applied = 0
        for round in 0..<40 {
            _ = try await shell.run("BEGIN;\n" + (0..<3).map { _ in writes.statement(&random) }.joined(separator: "\n") + "\nCOMMIT;")
            let expected = WatchJSONConsumer.sections(
                fromQuotedRows: try await shell.run("SELECT id, NULL FROM item ORDER BY position DESC, id;"), named: false)
            let converged = try await watch.waitUntil { lines in
                for line in lines.dropFirst(applied) { try consumer.apply(line) }
                applied = lines.count
                return consumer.sections == expected
            }
            #expect(converged, "seed \(seed), round \(round): \(consumer.sections) instead of \(expected)")
            guard converged else { break }
        }
        try watch.closeInput()
        #expect(try await watch.finish().exitCode == 0)
    }

    @Test("the initial line holds every row, past the first page the controller reads before the rest")
    func initialLineHoldsEveryRow() async throws {
        let folder = try WatchTestFolder()
        let shell = try SQLiteShell(database: folder.database)
        _ = try await shell.run(
            "CREATE TABLE note (id INTEGER PRIMARY KEY, rank INTEGER); "
                + "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) INSERT INTO note SELECT i, i FROM n;")
        let watch = try WatchProcess(
            ["watch", "--database", folder.database, "--table", "note", "--order-by", "rank", "--json"], in: folder.url)
        #expect(try await watch.waitUntil { !$0.isEmpty })
        let ids = (1...300).map(String.init).joined(separator: ",")
        #expect(watch.lines(from: 0) == [#"{"type":"initial","sections":[{"name":null,"ids":["# + ids + "]}]}"])
        _ = try await shell.run("DELETE FROM note WHERE id = 300;")
        #expect(try await watch.waitUntil { $0.count > 1 })
        #expect(
            watch.lines(from: 1) == [
                #"{"type":"change","sectionDeletes":[],"sectionInserts":[],"deletes":[[0,299]],"inserts":[],"moves":[],"updates":[]}"#
            ])
        try watch.closeInput()
        #expect(try await watch.finish().exitCode == 0)
    }

    @Test("a table without INTEGER PRIMARY KEY, a --where with OR and a trailing comment; only rows whose values changed are updates")
    func rowidTableAndUpdates() async throws {
        let folder = try WatchTestFolder()
        let shell = try SQLiteShell(database: folder.database)
        _ = try await shell.run(
            "CREATE TABLE note (body TEXT, rank INTEGER); INSERT INTO note VALUES ('one', 1), ('two', 2), ('three', 3);")
        let watch = try WatchProcess(
            [
                "watch", "--database", folder.database, "--table", "note", "--where", "rank = 1 OR rank >= 2 -- all",
                "--order-by", "rank:desc", "--json",
            ], in: folder.url)
        #expect(try await watch.waitUntil { !$0.isEmpty })
        #expect(watch.lines(from: 0) == [#"{"type":"initial","sections":[{"name":null,"ids":[3,2,1]}]}"#])
        _ = try await shell.run("UPDATE note SET body = 'TWO' WHERE rowid = 2;")
        #expect(try await watch.waitUntil { $0.count > 1 })
        #expect(
            watch.lines(from: 1) == [
                #"{"type":"change","sectionDeletes":[],"sectionInserts":[],"deletes":[],"inserts":[],"moves":[],"updates":[[0,1]]}"#
            ])
        // Rewriting a row with its own values changes nothing shown: no line of its own, and no update in the next.
        _ = try await shell.run("UPDATE note SET body = body WHERE rowid = 1;")
        _ = try await shell.run("INSERT INTO note VALUES ('four', 4);")
        #expect(try await watch.waitUntil { $0.count > 2 })
        #expect(
            watch.lines(from: 2) == [
                #"{"type":"change","sectionDeletes":[],"sectionInserts":[],"deletes":[],"inserts":[{"at":[0,0],"id":4}],"moves":[],"updates":[]}"#
            ])
        try watch.closeInput()
        #expect(try await watch.finish().exitCode == 0)
    }
}

extension WatchJSONConsumer {
    /// The sections of `id|quoted section value` rows (sqlite3's list mode, `quote()`d), grouped
    /// by consecutive equal values; a flat list is one unnamed section, even when empty.
    static func sections(fromQuotedRows rows: [String], named: Bool) -> [Section] {
        var sections: [Section] = named ? [] : [Section(name: nil, ids: [])]
        var current: String?
        for row in rows {
            let parts = row.split(separator: "|", maxSplits: 1).map(String.init)
            guard let id = Int64(parts[0]) else { continue }
            if named, sections.isEmpty || parts[1] != current {
                current = parts[1]
                sections.append(Section(name: parts[1] == "NULL" ? nil : String(parts[1].dropFirst().dropLast()), ids: []))
            }
            sections[sections.count - 1].ids.append(id)
        }
        return sections
    }
}

/// Random writes to the `item` table of `WatchJSONTests.schema`: inserts, moves within and
/// across sections, rows entering and leaving the `done = 0` filter, in-place updates,
/// deletes, and whole sections deleted or renamed.
struct RandomItemWrites {
    private var inserted = 0
    private static let categories = ["'a'", "'b'", "'c'", "'d'", "NULL"]

    mutating func insert(_ random: inout SeededGenerator) -> String {
        inserted += 1
        return
            "INSERT INTO item (title, category, position, done) VALUES ('t\(inserted)', \(category(&random)), \(random.next(below: 20)), \(random.next(below: 5) == 0 ? 1 : 0));"
    }

    mutating func statement(_ random: inout SeededGenerator) -> String {
        let id = random.next(below: UInt64(max(inserted, 1))) + 1
        switch random.next(below: 20) {
        case 0..<6: return insert(&random)
        case 6..<9: return "UPDATE item SET position = \(random.next(below: 20)) WHERE id = \(id);"
        case 9..<12: return "UPDATE item SET category = \(category(&random)) WHERE id = \(id);"
        case 12..<14: return "UPDATE item SET done = 1 - done WHERE id = \(id);"
        case 14..<16: return "UPDATE item SET title = title || '*' WHERE id = \(id);"
        case 16..<18: return "DELETE FROM item WHERE id = \(id);"
        case 18: return "DELETE FROM item WHERE category IS \(category(&random));"
        default: return "UPDATE item SET category = \(category(&random)) WHERE category IS \(category(&random));"
        }
    }

    private func category(_ random: inout SeededGenerator) -> String {
        Self.categories[Int(random.next(below: UInt64(Self.categories.count)))]
    }
}

extension SeededGenerator {
    /// The next number below `bound`, as the watch tests have drawn them (`WATCH_SEED` replays a run).
    fileprivate mutating func next(below bound: UInt64) -> UInt64 { next() % bound }
}

/// A temporary folder holding `watch.sqlite`; removed with the value.
final class WatchTestFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("StoreCLIWatch-\(UUID().uuidString)")
    var database: String { url.appendingPathComponent("watch.sqlite").path }

    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }

    deinit { try? FileManager.default.removeItem(at: url) }
}
#endif
