import CSQLite
import Foundation
import TestSupport
import Testing

@testable import SQLiteStoreCore

/// Splitting a migration into statements: the same statements `sqlite3_complete` finds, in
/// one pass, so that unclosed quotes and large files cost time linear in their size.
@Suite("Migration scripts at scale")
struct MigrationScriptScaleTests {
    /// The pieces random scripts are made of: what makes `sqlite3_complete` keep or end a statement.
    static let pieces = [
        ";", ";", " ", "\n", "\t", "SELECT 1", "CREATE", "create", "TEMP", "temporary", "TRIGGER", "trigger", "t",
        "BEGIN", "END", "end", "EXPLAIN", "x", "_y", "$z", "é", "'a;b'", "'it''s;'", "\"q;\"", "`b;`", "[c;]",
        "-- c;\n", "/* c; */", "/**/", "'", "\"", "[", "/*", "--", "-", "/", "(", ")", "*",
    ]

    /// The statements as the old splitter found them: a `;` ends a statement when
    /// `sqlite3_complete` says the text from the statement's start to it is complete.
    private static func referenceSplit(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        var statements: [String] = []
        var start = 0
        func take(_ end: Int) {
            var index = start
            while index < end {  // whitespace and comments before the first token
                if [0x20, 0x09, 0x0A, 0x0C, 0x0D].contains(bytes[index]) {
                    index += 1
                } else if bytes[index...].starts(with: Array("--".utf8)) {
                    index = bytes[index..<end].firstIndex(of: 0x0A) ?? end
                } else if bytes[index...].starts(with: Array("/*".utf8)) {
                    index =
                        (index + 2..<end).first { bytes[$0 - 1] == UInt8(ascii: "*") && bytes[$0] == UInt8(ascii: "/") && $0 > index + 2 }
                        .map { $0 + 1 } ?? end
                } else {
                    break
                }
            }
            if index < end && bytes[index] != UInt8(ascii: ";") {
                statements.append(String(decoding: bytes[index..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
            }
            start = end
        }
        for index in bytes.indices where bytes[index] == UInt8(ascii: ";") {
            let complete = String(decoding: bytes[start...index], as: UTF8.self).withCString { sqlite3_complete($0) != 0 }
            if complete { take(index + 1) }
        }
        if start < bytes.count { take(bytes.count) }
        return statements
    }

    @Test("statements end where sqlite3_complete says they do, on 3,000 seeded random scripts")
    func matchesSQLiteComplete() {
        var random = SeededGenerator()
        var mismatches: [String] = []
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 1...25, using: &random)).map { _ in Self.pieces.randomElement(using: &random) ?? "" }.joined()
            let found = SQLScript(text: Substring(text), firstLine: 1).statements.map(\.sql)
            let expected = Self.referenceSplit(text)
            if found != expected { mismatches.append("\(text.debugDescription): \(found) ≠ \(expected)") }
        }
        #expect(mismatches.isEmpty, "seed \(random.seed) (STORE_TEST_SEED replays it):\n\(mismatches.prefix(10).joined(separator: "\n"))")
    }

    @Test("an unclosed quote on line 1 of a 4 MB file makes one statement, found in one pass")
    func unclosedQuote() throws {
        let text = "INSERT INTO t VALUES ('unclosed);\n" + String(repeating: "INSERT INTO t VALUES (1);\n", count: 160_000)
        let migration = try Migration(version: 1, name: "big", sql: text)
        guard case .sql(let up) = migration.up else {
            Issue.record("expected SQL")
            return
        }
        let statements = up.statements
        #expect(statements.count == 1)
        #expect(statements.first?.line == 1)
        #expect(statements.first?.sql.utf8.count == text.utf8.count - 1)
    }

    @Test("a file of 100,000 statements applies one statement at a time, with lines and the failing one named")
    func largeFileApplies() throws {
        let directory = try TemporaryDirectory()
        let rows = 100_000
        let text =
            "CREATE TABLE t(x);\n" + (1...rows).map { "INSERT INTO t VALUES (\($0));" }.joined(separator: "\n")
            + "\nINSERT INTO missing VALUES (1);\n"
        let folder = try directory.writeMigrations(["0001_big.sql": text])
        let store = try Store(path: directory.url.appendingPathComponent("db.sqlite").path)
        #expect {
            try Migrator(folder: folder).migrate(store)
        } throws: { error in
            guard case MigrationError.migrationFailed(let failure) = error else { return false }
            return failure.line == rows + 2 && failure.statement == "INSERT INTO missing VALUES (1);"
        }
        #expect(try store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_schema WHERE name = 't'") } == 0)
        try directory.writeMigrations(["0001_big.sql": text.replacingOccurrences(of: "INSERT INTO missing VALUES (1);\n", with: "")])
        try Migrator(folder: folder).migrate(store)
        #expect(try store.read { db in try db.fetchValue(Int.self, sql: "SELECT sum(x) FROM t") } == rows * (rows + 1) / 2)
    }
}
