import CSQLite
import Foundation
import Testing

@testable import SQLiteStoreCore

/// `execute(sql:)` and the fetches reuse prepared statements from a cache of bounded size, and
/// the end of a transaction looks only at the statements that returned rows, not at the cache.
@Suite struct StatementCacheBoundTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: "CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER)")
    }

    @Test("10,000 distinct SQL strings keep the cache, and the connection's prepared statements, bounded; results stay right")
    func distinctStatementsKeepTheCacheBounded() throws {
        let (wrong, cached, prepared) = try store.write { db in
            var wrong = 0
            for number in 0..<10_000 {
                try db.execute(sql: "INSERT INTO t(id, v) VALUES (\(number), \(number * 2))")
                if try db.fetchValue(Int.self, sql: "SELECT v + \(number) FROM t WHERE id = \(number)") != number * 3 { wrong += 1 }
            }
            return (wrong, db.cachedStatementCount, Self.preparedStatementCount(of: db))
        }
        #expect(wrong == 0)
        #expect(cached == StatementCache.defaultCapacity)
        #expect(
            prepared < StatementCache.defaultCapacity + Database.minimumSteppedStatementsLimit,
            "statements dropped from the cache are finalized once no longer open")
        #expect(try store.read { db in try db.fetchValue(Int.self, sql: "SELECT sum(v) FROM t") } == 2 * (0..<10_000).reduce(0, +))
    }

    /// String's `==` equates canonically equivalent texts; SQLite reads their bytes.
    @Test("SQL that differs only in canonically equivalent bytes is two statements: each reads its own table and literal")
    func canonicallyEquivalentSQLIsTwoStatements() throws {
        let tables = ["caf\u{E9}s", "cafe\u{301}s"]
        let (literals, names) = try store.write { db in
            for table in tables { try db.execute(sql: "CREATE TABLE \(SQLIdentifier.quote(table))(name TEXT)") }
            for table in tables {
                try db.execute(sql: "INSERT INTO \(SQLIdentifier.quote(table)) VALUES ('\(table)')")
            }
            let literals = try tables.map { try db.fetchValue(DatabaseValue.self, sql: "SELECT '\($0)'") }
            let names = try tables.map { try db.fetchValue(DatabaseValue.self, sql: "SELECT name FROM \(SQLIdentifier.quote($0))") }
            return (literals, names)
        }
        #expect(literals == tables.map { .text($0) })
        #expect(names == tables.map { .text($0) })
    }

    @Test("The least recently used statement is the one dropped: a statement in use stays cached")
    func leastRecentlyUsedIsDropped() throws {
        let (kept, dropped) = try store.write { db in
            let hot = try db.cachedStatement(sql: "SELECT 'hot'")
            let cold = try db.cachedStatement(sql: "SELECT 'cold'")
            for number in 0..<(StatementCache.defaultCapacity * 3) {
                _ = try db.fetchValue(Int.self, sql: "SELECT \(number)")
                _ = try db.cachedStatement(sql: "SELECT 'hot'")
            }
            return (try db.cachedStatement(sql: "SELECT 'hot'") === hot, try db.cachedStatement(sql: "SELECT 'cold'") === cold)
        }
        #expect(kept)
        #expect(!dropped)
    }

    @Test("A half-read statement dropped from the cache is still rewound when the transaction ends")
    func droppedHalfReadStatementIsRewound() throws {
        var configuration = StoreConfiguration()
        configuration.readerCount = 1  // every read uses the same reader connection
        let store = try directory.makeStore(
            named: "one-reader.sqlite", configuration: configuration,
            schema: "CREATE TABLE t(id INTEGER PRIMARY KEY); INSERT INTO t VALUES (1), (2)")
        let leftOpen = try store.read { db in
            let statement = try db.cachedStatement(sql: "SELECT id FROM t")
            try statement.step()  // left on its first row
            for number in 0...StatementCache.defaultCapacity { _ = try db.fetchValue(Int.self, sql: "SELECT \(number)") }
            return statement
        }
        try store.write { db in try db.execute(sql: "INSERT INTO t VALUES (3)") }
        #expect(try store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM t") } == 3)
        #expect(sqlite3_stmt_busy(leftOpen.handle) == 0)
    }

    private static func preparedStatementCount(of db: Database) -> Int {
        var count = 0
        var statement = sqlite3_next_stmt(db.handle, nil)
        while let current = statement {
            count += 1
            statement = sqlite3_next_stmt(db.handle, current)
        }
        return count
    }
}
