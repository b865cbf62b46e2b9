import Foundation
import SQLiteStoreCore
import Testing

/// Predicates, sort orders and windows of `StoreRequest`, checked against a small table with NULLs.
@Suite("Fetch requests")
struct StoreRequestTests {
    let directory: TemporaryDirectory
    let store: Store

    /// id: title, score, rank, done
    static let rows: [Item] = [
        Item(id: 1, title: "apple", score: 10, rank: 1.5, done: false),
        Item(id: 2, title: "Banana", score: 20, rank: nil, done: true),
        Item(id: 3, title: "cherry", score: nil, rank: 3.0, done: false),
        Item(id: 4, title: "date", score: 20, rank: 0.5, done: true),
        Item(id: 5, title: "elder_berry", score: 5, rank: nil, done: false),
        Item(id: 6, title: "100%", score: 30, rank: 2.0, done: true),
    ]

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Item.schema)
        try store.write { db in
            for var item in Self.rows { try db.insert(&item) }
        }
    }

    /// The ids `request` fetches, in order.
    private func ids(_ request: StoreRequest<Item>) throws -> [Int64] {
        try store.read { db in try db.fetch(request).compactMap(\.id) }
    }

    private func ids(where predicate: SQLExpression) throws -> [Int64] {
        try ids(StoreRequest<Item>().filter(predicate))
    }

    @Test("== and != bind their value; comparing with nil is IS NULL / IS NOT NULL")
    func equality() throws {
        #expect(try ids(where: Column("score") == 20) == [2, 4])
        #expect(try ids(where: Column("title") == "apple") == [1])
        #expect(try ids(where: Column("done") == true) == [2, 4, 6])
        #expect(try ids(where: Column("score") == Int?.none) == [3])
        #expect(try ids(where: Column("score") != 20) == [1, 3, 5, 6])  // IS NOT: the NULL row differs from 20
        #expect(try ids(where: Column("score") != Int?.none) == [1, 2, 4, 5, 6])
    }

    @Test("Ordering comparisons never match NULL")
    func comparisons() throws {
        #expect(try ids(where: Column("score") < 20) == [1, 5])
        #expect(try ids(where: Column("score") <= 20) == [1, 2, 4, 5])
        #expect(try ids(where: Column("score") > 20) == [6])
        #expect(try ids(where: Column("score") >= 20) == [2, 4, 6])
        #expect(try ids(where: Column("rank") > 1.0) == [1, 3, 6])
        #expect(try ids(where: Column("title") < "a") == [2, 6])  // BINARY: digits and capitals sort first
    }

    @Test("IN matches listed values; an empty list matches nothing, and its negation everything")
    func inList() throws {
        #expect(try ids(where: Column("score").in([10, 30])) == [1, 6])
        #expect(try ids(where: Column("title").in(["date", "fig", "apple"])) == [1, 4])
        #expect(try ids(where: Column("score").in([])) == [])
        #expect(try ids(where: !Column("score").in([])) == [1, 2, 3, 4, 5, 6])
    }

    @Test("LIKE is case-insensitive for ASCII, and backslash escapes % and _")
    func like() throws {
        #expect(try ids(where: Column("title").like("%an%")) == [2])
        #expect(try ids(where: Column("title").like("b%")) == [2])
        #expect(try ids(where: Column("title").like("%\\%")) == [6])
        #expect(try ids(where: Column("title").like("%\\_%")) == [5])
        #expect(try ids(where: Column("title").like("%_%")) == [1, 2, 3, 4, 5, 6])
        #expect(try ids(where: Column("title").like("_____")) == [1])
    }

    @Test("isNull and isNotNull")
    func nullTests() throws {
        #expect(try ids(where: Column("rank").isNull) == [2, 5])
        #expect(try ids(where: Column("rank").isNotNull) == [1, 3, 4, 6])
    }

    @Test("&&, || and ! combine conditions with SQL's three-valued logic")
    func logic() throws {
        #expect(try ids(where: Column("score") >= 20 && Column("done") == true) == [2, 4, 6])
        #expect(try ids(where: Column("score") < 10 || Column("rank").isNull) == [2, 5])
        #expect(try ids(where: !(Column("done") == true)) == [1, 3, 5])
        #expect(try ids(where: !(Column("score") > 15)) == [1, 5])  // NOT NULL is NULL: row 3 matches neither
        #expect(try ids(where: (Column("score") == 20 || Column("score") == 5) && !Column("rank").isNull) == [4])
        #expect(try ids(StoreRequest<Item>().filter(Column("done") == true).filter(Column("score") == 20)) == [2, 4])
    }

    @Test("An SQL fragment binds its arguments and combines with column expressions")
    func sqlFragment() throws {
        let fragment = SQLExpression(sql: "length(title) > ? AND score IS NOT NULL", arguments: [5])
        #expect(try ids(where: fragment) == [2, 5])
        #expect(try ids(where: fragment && Column("done") == false) == [5])
        #expect(fragment.referencedColumns == nil)
        #expect((Column("score") > 1 && Column("done") == true).referencedColumns == ["score", "done"])
        #expect((fragment && Column("done") == true).referencedColumns == nil)
        #expect((Column("score") > 1 && Column("done") == true).arguments == [.integer(1), .integer(1)])
    }

    @Test("Ascending puts NULLs first, descending last; ties break by rowid")
    func nullOrdering() throws {
        #expect(try ids(StoreRequest<Item>().order(Column("score").ascending)) == [3, 5, 1, 2, 4, 6])
        #expect(try ids(StoreRequest<Item>().order(Column("score").descending)) == [6, 2, 4, 1, 5, 3])
        #expect(try ids(StoreRequest<Item>()) == [1, 2, 3, 4, 5, 6])
    }

    @Test("Several sort keys, each ascending or descending; text compares byte by byte")
    func multipleSortKeys() throws {
        #expect(try ids(StoreRequest<Item>().order(Column("done").descending, Column("title").ascending)) == [6, 2, 4, 1, 3, 5])
        #expect(try ids(StoreRequest<Item>().order(Column("score").descending, Column("title").descending)) == [6, 4, 2, 1, 5, 3])
        #expect(try ids(StoreRequest<Item>().order(Column("title").ascending)) == [6, 2, 1, 3, 4, 5])
    }

    @Test("limit and offset window the sorted rows")
    func window() throws {
        let sorted = StoreRequest<Item>().order(Column("title").ascending)
        #expect(try ids(sorted.limit(2)) == [6, 2])
        #expect(try ids(sorted.limit(2, offset: 3)) == [3, 4])
        #expect(try ids(sorted.limit(10, offset: 4)) == [4, 5])
        #expect(try ids(sorted.limit(0)) == [])
        #expect(try ids(sorted.limit(3, offset: 99)) == [])
        #expect(try ids(StoreRequest<Item>(offset: 4)) == [5, 6])
        let counts = try store.read { db in
            [
                try db.fetchCount(sorted.limit(2, offset: 3)), try db.fetchCount(StoreRequest<Item>(offset: 5)),
                try db.fetchCount(sorted.filter(Column("done") == true).limit(2)),
            ]
        }
        #expect(counts == [2, 1, 2])
    }

    @Test(
        "A negative limit or offset is SQLITE_RANGE",
        arguments: [
            StoreRequest<Item>().limit(-1), StoreRequest<Item>().limit(-5), StoreRequest<Item>().limit(2, offset: -1),
            StoreRequest<Item>(offset: -3),
        ])
    func negativeWindow(request: StoreRequest<Item>) throws {
        let fetchError = #expect(throws: StoreError.self) { _ = try ids(request) }
        #expect(fetchError?.code == .range)
        let countError = #expect(throws: StoreError.self) { _ = try store.read { db in try db.fetchCount(request) } }
        #expect(countError?.code == .range)
    }

    @Test("A request can read another table with the model's columns")
    func otherTable() throws {
        try store.write { db in try db.execute(sql: "CREATE TABLE archived_item AS SELECT * FROM item WHERE done") }
        #expect(try ids(StoreRequest<Item>(tableName: "archived_item")) == [2, 4, 6])
    }

    @Test("Section key and batch size are kept on the request")
    func sectionAndBatch() {
        let request = StoreRequest<Item>().order(Column("done").ascending).sectioned(by: Column("done")).batchSize(50)
        #expect(request.sectionKey == Column("done"))
        #expect(request.batchSize == 50)
        #expect(request.tableName == "item")
    }
}
