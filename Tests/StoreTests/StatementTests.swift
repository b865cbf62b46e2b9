import Foundation
import SQLiteStoreCore
import Testing

/// Prepared statements, the statement cache, scripts and row cursors.
@Suite("Statements and cursors")
struct StatementTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Item.schema)
    }

    @Test("cachedStatement returns the same prepared statement; prepare a new one each time")
    func statementCache() throws {
        let (cachedTwice, preparedTwice, results) = try store.write { db in
            let first = try db.cachedStatement(sql: "SELECT ? + 1")
            let second = try db.cachedStatement(sql: "SELECT ? + 1")
            let fresh = try db.prepare(sql: "SELECT ? + 1")
            let results = try (1...3).map { number in try db.fetchValue(Int.self, sql: "SELECT ? + 1", arguments: [number]) }
            return (first === second, fresh === first, results)
        }
        #expect(cachedTwice)
        #expect(!preparedTwice)
        #expect(results == [2, 3, 4])
    }

    @Test("A cached statement is rewound when handed out again, even if left half-read")
    func cachedStatementRewinds() throws {
        let values = try store.read { db in
            let statement = try db.cachedStatement(sql: "SELECT 1 UNION ALL SELECT 2 ORDER BY 1")
            try statement.step()  // leave it on the first row
            return try db.fetchRows(sql: "SELECT 1 UNION ALL SELECT 2 ORDER BY 1").map(\.values)
        }
        #expect(values == [[.integer(1)], [.integer(2)]])
    }

    @Test("Statement exposes its SQL, columns, parameters and whether it is read-only")
    func statementProperties() throws {
        let (readOnly, write) = try store.read { db in
            (
                try db.prepare(sql: "SELECT id, title AS name FROM item WHERE id > ?"),
                try db.prepare(sql: "DELETE FROM item")
            )
        }
        #expect(readOnly.sql == "SELECT id, title AS name FROM item WHERE id > ?")
        #expect(readOnly.columnNames == ["id", "name"])
        #expect(readOnly.columnCount == 2)
        #expect(readOnly.parameterCount == 1)
        #expect(readOnly.isReadOnly)
        #expect(!write.isReadOnly)
    }

    @Test("Binding the wrong number of arguments is SQLITE_RANGE")
    func argumentCount() throws {
        for arguments: [any DatabaseValueConvertible] in [[], [1, 2]] {
            let error = #expect(throws: StoreError.self) {
                _ = try store.read { db in try db.fetchValue(Int.self, sql: "SELECT ?", arguments: arguments) }
            }
            #expect(error?.code == .range)
            #expect(error?.sql == "SELECT ?")
        }
    }

    @Test("prepare refuses several statements and empty SQL")
    func prepareOneStatement() throws {
        let several = #expect(throws: StoreError.self) { _ = try store.read { db in try db.prepare(sql: "SELECT 1; SELECT 2") } }
        #expect(several?.code == .misuse)
        let empty = #expect(throws: StoreError.self) { _ = try store.read { db in try db.prepare(sql: "  -- nothing") } }
        #expect(empty?.code == .misuse)
    }

    @Test("prepare accepts a statement followed by a comment")
    func prepareTrailingComment() throws {
        let value = try store.read { db in try db.fetchValue(Int.self, sql: "SELECT 1; -- the answer") }
        #expect(value == 1)
    }

    @Test("execute(script:) runs every statement, comments and blank lines included")
    func script() throws {
        let titles = try store.write { db in
            try db.execute(
                script: """
                    -- a comment first
                    INSERT INTO item(title) VALUES ('one');

                    INSERT INTO item(title) VALUES ('two; with a semicolon');
                    /* block comment */ UPDATE item SET score = length(title);
                    """)
            return try db.fetchRows(sql: "SELECT title, score FROM item ORDER BY id").map(\.values)
        }
        #expect(titles == [[.text("one"), .integer(3)], [.text("two; with a semicolon"), .integer(21)]])
    }

    @Test("A failing statement in a script names itself; the write rolls back the ones before it")
    func scriptFailure() throws {
        let error = #expect(throws: StoreError.self) {
            try store.write { db in
                try db.execute(
                    script:
                        "INSERT INTO item(title) VALUES ('kept?'); INSERT INTO nowhere VALUES (1); INSERT INTO item(title) VALUES ('never')"
                )
            }
        }
        #expect(error?.code == .error)
        #expect(error?.message.contains("no such table: nowhere") == true)
        #expect(error?.sql?.contains("INSERT INTO nowhere") == true)
        #expect(error?.sql?.contains("kept?") == false)
        #expect(try store.read { db in try db.count("item") } == 0)
    }

    @Test("A row cursor iterates 200,000 rows one at a time")
    func rowCursor() throws {
        let (count, sum, last) = try store.read { db in
            var cursor = try db.cursor(
                sql: """
                    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?) SELECT x, 'row ' || x AS label FROM n
                    """, arguments: [200_000])
            var count = 0
            var sum = 0
            var last: Row?
            while let row = try cursor.next() {
                count += 1
                sum += try row.decode(Int.self, column: "x")
                last = row
            }
            #expect(try cursor.next() == nil)  // stays finished
            return (count, sum, last)
        }
        #expect(count == 200_000)
        #expect(sum == 200_000 * 200_001 / 2)
        #expect(last?["label"] == .text("row 200000"))
        #expect(last?.columnNames == ["x", "label"])
    }

    @Test("A model cursor iterates a large table while other queries run")
    func modelCursorAlongsideQueries() throws {
        try store.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 50000)
                    INSERT INTO item(title, score) SELECT 'item ' || x, x FROM n
                    """)
        }
        let (count, ordered, lookupsMatched) = try store.read { db in
            var cursor = try db.cursor(StoreRequest<Item>().order(Column("score").descending))
            var count = 0
            var ordered = true
            var lookupsMatched = true
            var previous = Int.max
            while let item = try cursor.next() {
                count += 1
                ordered = ordered && (item.score ?? 0) < previous
                previous = item.score ?? 0
                if count.isMultiple(of: 10_000) {
                    let lookup = try db.fetchOne(Item.self, id: item.id ?? 0)
                    lookupsMatched = lookupsMatched && lookup == item
                }
            }
            return (count, ordered, lookupsMatched)
        }
        #expect(count == 50_000)
        #expect(ordered)
        #expect(lookupsMatched)
    }

    @Test("A cursor reports the error that stops its query")
    func cursorError() throws {
        let error = #expect(throws: StoreError.self) {
            try store.read { db in
                var cursor = try db.cursor(
                    sql: "SELECT CASE WHEN x < 3 THEN x ELSE abs(-9223372036854775807 - 1) END FROM (SELECT 1 AS x UNION ALL SELECT 5)")
                while try cursor.next() != nil {}
            }
        }
        #expect(error?.code == .error)
        #expect(error?.message.contains("integer overflow") == true)
    }

    @Test("lastInsertedRowID, changesCount and isInsideTransaction describe the connection")
    func connectionState() throws {
        let (rowID, changes, inside) = try store.write { db in
            try db.execute(sql: "INSERT INTO item(title) VALUES ('a'), ('b'), ('c')")
            let rowID = db.lastInsertedRowID
            try db.execute(sql: "UPDATE item SET done = 1 WHERE id < 3")
            return (rowID, db.changesCount, db.isInsideTransaction)
        }
        #expect(rowID == 3)
        #expect(changes == 2)
        #expect(inside)
    }
}
