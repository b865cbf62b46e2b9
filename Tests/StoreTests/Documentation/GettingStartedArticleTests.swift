import SQLiteStoreCore
import Testing

/// The snippets of the Getting Started article (SQLiteStoreCore.docc) that the README tests
/// do not run, verbatim: edit both together.
@Suite struct GettingStartedArticleTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: Item.schema + """
                INSERT INTO item(title, done) VALUES ('Buy milk', 1), ('Call Ada', 0), ('Answer mail', 0);
                """)
    }

    @Test func describeWhatToFetch() throws {
        let firstTwo = try store.read { db in
            try db.fetch(StoreRequest<Item>().order(Column("title").ascending).limit(2))
        }
        let openCount = try store.read { db in
            try db.fetchCount(StoreRequest<Item>().filter(Column("done") == false))
        }
        let first = try store.read { db in try db.fetchOne(Item.self, id: 1) }
        let startingWithBuy = StoreRequest<Item>().filter(SQLExpression(sql: "title LIKE ? || '%'", arguments: ["Buy"]))

        #expect(firstTwo.map(\.title) == ["Answer mail", "Buy milk"])
        #expect(openCount == 2)
        #expect(first == Item(id: 1, title: "Buy milk", done: true))
        #expect(try store.read { db in try db.fetch(startingWithBuy) }.map(\.title) == ["Buy milk"])
    }

    @Test func handleErrors() throws {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        do {
            try store.write { db in
                try db.execute(sql: "INSERT INTO item(id, title, done) VALUES (1, 'Again', 0)")
            }
        } catch let error as StoreError {
            print(error.code == .constraint, error.extendedCode, error.message)
        }

        #expect(printed == ["true 1555 UNIQUE constraint failed: item.id"])
        #expect(try store.read { db in try db.fetchCount(StoreRequest<Item>()) } == 3, "the failed write left the table as it was")
    }
}

/// The article's "Open a store, write, read" snippet, verbatim, with the article's own `Item`
/// (the other suites of this target share an `Item` with more columns).
@Suite struct GettingStartedOpenWriteReadTests {
    struct Item: StoreModel, Equatable {
        static let tableName = "item"
        var id: Int64?
        var title: String
        var done: Bool
    }

    @Test func openWriteRead() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("app.sqlite")

        let store = try Store(path: path)  // WAL, synchronous=NORMAL, foreign keys on, 4 readers
        try store.write { db in
            try db.execute(sql: "CREATE TABLE item(id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL)")
            var milk = Item(title: "Buy milk", done: false)
            try db.insert(&milk)  // sets milk.id
            milk.done = true
            try db.update(milk)
        }
        let open = try store.read { db in
            try db.fetch(StoreRequest<Item>().filter(Column("done") == false).order(Column("title").ascending))
        }

        #expect(open.isEmpty)
        #expect(try store.read { db in try db.fetch(StoreRequest<Item>()) } == [Item(id: 1, title: "Buy milk", done: true)])
    }
}
