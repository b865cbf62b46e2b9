import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// The queries a first screen runs, as SQLite plans them: the first page of an order SQLite
/// must sort sorts the rowids alone, and a keyset query seeks in an index on its order, in
/// either direction; each reads the rows of the full order.
@Suite struct FirstScreenQueryPlanTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: Note.schema + "CREATE INDEX note_by_score ON note(score); CREATE INDEX note_by_title ON note(title DESC);")
        // Titles with many ties (t0 to t6), scores with ties and NULL.
        try store.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
                    INSERT INTO note(title, grp, score)
                    SELECT 't' || (i % 7), 'g' || (i % 3), CASE WHEN i % 9 = 0 THEN NULL ELSE i % 50 END FROM n
                    """)
        }
    }

    /// The rowids of `query`'s rows, in order.
    private func rowIDs(_ db: Database, _ query: (sql: String, arguments: [DatabaseValue])) throws -> [Int64] {
        try db.fetchRows(sql: query.sql, arguments: query.arguments).compactMap {
            if case .integer(let rowID) = $0[0] { return rowID }
            return nil
        }
    }

    /// The details of SQLite's plan for `query` (`EXPLAIN QUERY PLAN`).
    private func plan(_ db: Database, _ query: (sql: String, arguments: [DatabaseValue])) throws -> [String] {
        try db.fetchRows(sql: "EXPLAIN QUERY PLAN " + query.sql, arguments: query.arguments).compactMap {
            if case .text(let detail) = $0[3] { return detail }
            return nil
        }
    }

    @Test(arguments: [
        StoreRequest<Note>().order(Column("title").ascending),
        StoreRequest<Note>().filter(Column("grp") != "g1").order(Column("title").ascending(collation: .nocase), Column("score").descending),
        StoreRequest<Note>().order(Column("grp").ascending, Column("title").descending).sectioned(by: Column("grp")),
    ])
    func anOrderSQLiteSortsSortsTheRowIDsAloneThenReadsThePageByRowID(request: StoreRequest<Note>) throws {
        try store.read { db in
            let plan = try FetchPlan(request, db: db, registered: [])
            let page = try #require(try plan.sortedRowIDsQuery(request.limit(257), db))
            #expect(page.sql.contains("CROSS JOIN"), "\(page.sql)")
            let steps = try self.plan(db, page)
            #expect(steps.contains { $0.contains("USING INTEGER PRIMARY KEY (rowid=?)") }, "\(steps)")
            // One sort, of the rowids and keys alone: the page's rows are not sorted again.
            #expect(steps.filter { $0.hasPrefix("USE TEMP B-TREE") }.count == 1, "\(steps)")
            // The first rows of the whole order, ties broken by rowid alike, in order.
            let whole = try rowIDs(db, request.sql(selecting: plan.rowID, rowID: plan.rowID))
            #expect(try rowIDs(db, page) == Array(whole.prefix(257)))
        }
    }

    @Test func anOrderAnIndexServesReadsItsFirstPageAsItIs() throws {
        try store.read { db in
            let plan = try FetchPlan(StoreRequest<Note>().order(Column("score").ascending), db: db, registered: [])
            #expect(try plan.sortedRowIDsQuery(plan.request.limit(257), db) == nil)
        }
    }

    @Test func readingRowsThatDoNotComeInTheOrderExpectedStopsWhenChecked() throws {
        try store.read { db in
            let plan = try FetchPlan(StoreRequest<Note>().order(Column("title").ascending), db: db, registered: [])
            let reversed = try plan.query(of: StoreRequest<Note>().order(Column("title").descending))
            for checkingOrder in [false, true] {
                let statement = try db.cachedStatement(sql: reversed.sql)
                defer { statement.reset() }
                var index = plan.emptyIndex()
                let read = Result { try plan.columns.read(statement, into: &index, checkingOrder: checkingOrder) { _ in } }
                if checkingOrder {
                    #expect(throws: RowsOutOfOrder.self) { try read.get() }
                } else {
                    #expect(try read.get() == 1000)
                }
            }
        }
    }

    @Test(arguments: [true, false])
    func aKeysetQuerySeeksInAnIndexOnItsOrderInEitherDirection(isAscending: Bool) throws {
        try store.read { db in
            // An index on title DESC serves `title DESC, rowid` forwards and `title, rowid DESC` not at all.
            let request = StoreRequest<Note>().order(isAscending ? Column("score").ascending : Column("title").descending)
            let plan = try FetchPlan(request, db: db, registered: [])
            let whole = try rowIDs(db, request.sql(selecting: plan.rowID, rowID: plan.rowID))
            let last = try db.fetchRows(
                sql: "SELECT \(isAscending ? "score" : "title") FROM note WHERE id = ?", arguments: [whole[499]])[0][0]
            let after = try plan.rows(after: SortKeys(single: last), rowID: whole[499]).limit(50).sql(
                selecting: plan.rowID, rowID: plan.rowID)
            let steps = try self.plan(db, after)
            #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(steps)")
            #expect(
                steps.contains { $0.hasPrefix("SEARCH note USING") && $0.contains(isAscending ? "(score>?)" : "(title<?)") }, "\(steps)")
            #expect(try rowIDs(db, after) == Array(whole[500..<550]))
        }
    }

    @Test func aDescendingKeysetQueryOverANullableKeyReadsOnIntoItsNulls() throws {
        try store.read { db in
            // NULL scores sort last descending: a bound on the key would drop them.
            let request = StoreRequest<Note>().order(Column("score").descending)
            let plan = try FetchPlan(request, db: db, registered: [])
            let whole = try rowIDs(db, request.sql(selecting: plan.rowID, rowID: plan.rowID))
            let position = 850
            let score = try db.fetchRows(sql: "SELECT score FROM note WHERE id = ?", arguments: [whole[position]])[0][0]
            let after = try plan.rows(after: SortKeys(single: score), rowID: whole[position]).sql(
                selecting: plan.rowID, rowID: plan.rowID)
            #expect(try rowIDs(db, after) == Array(whole[(position + 1)...]))
        }
    }
}
