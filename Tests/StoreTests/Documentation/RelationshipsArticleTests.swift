import SQLiteStoreCore
import SQLiteStoreMacros
import Testing

/// The Relationships article's snippets, verbatim, run against the schema it describes.
@Suite struct RelationshipsArticleTests {
    @StoreModel(table: "list")
    struct TodoList {
        var id: Int64?
        var name: String

        static let items = ToMany("items", inverse: Item.list)
    }

    @StoreModel
    struct Item {
        var id: Int64?
        @StoreColumn("list_id") var listID: Int64?
        var title: String
        var done: Bool

        static let list = ToOne<Item, TodoList>("list", foreignKey: "list_id")
        static let tags = ManyToMany<Item, Tag>("tags", through: "item_tag", sourceKey: "item_id", targetKey: "tag_id")
    }

    @StoreModel
    struct Tag {
        var id: Int64?
        var name: String
    }

    static let schema = """
        CREATE TABLE list(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE item(id INTEGER PRIMARY KEY, list_id INTEGER REFERENCES list(id) ON DELETE CASCADE,
                          title TEXT NOT NULL, done INTEGER NOT NULL);
        CREATE TABLE tag(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE item_tag(item_id INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                              tag_id INTEGER NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
                              PRIMARY KEY(item_id, tag_id)) WITHOUT ROWID;
        INSERT INTO list VALUES (1, 'Groceries'), (2, 'Work');
        INSERT INTO item VALUES (1, 1, 'Milk', 0), (2, 1, 'Bread', 1), (3, 2, 'Report', 1), (4, NULL, 'Loose', 0);
        INSERT INTO tag VALUES (1, 'urgent');
        INSERT INTO item_tag VALUES (1, 1), (3, 1);
        """

    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Self.schema)
        try store.read { db in try db.check(Item.self) }
    }

    @Test func deleteRule() throws {
        let rule = try store.read { db in try db.deleteRule(of: Item.list) }
        #expect(rule == .cascade)
    }

    @Test func fetchWithList() throws {
        struct ItemWithList {
            var item: Item
            var list: TodoList?
        }

        let rows = try store.read { db in
            try db.fetch(StoreRequest<Item>().order { $0.title.ascending }, including: Item.list)
        }
        let items = rows.map { ItemWithList(item: $0, list: $1) }
        #expect(items.map(\.item.title) == ["Bread", "Loose", "Milk", "Report"])
        #expect(items.map { $0.list?.name } == ["Groceries", nil, "Groceries", "Work"])
    }

    @Test func fetchToManyAndCounts() throws {
        let lists = try store.read { db in
            try db.fetch(
                StoreRequest<TodoList>().order { $0.name.ascending }, including: TodoList.items,
                children: StoreRequest<Item>().filter { $0.done == false })
        }
        let tagged = try store.read { db in try db.fetch(StoreRequest<Item>(), including: Item.tags) }
        let counts = try store.read { db in try db.fetch(StoreRequest<TodoList>(), counting: TodoList.items) }
        #expect(lists.map { $0.1.map(\.title) } == [["Milk"], []])
        #expect(tagged.map { $0.1.map(\.name) } == [["urgent"], [], ["urgent"], []])
        #expect(counts.map { $0.1 } == [2, 1])
    }

    @Test func fetchManyToManyTargetsAndConditionalCount() throws {
        try store.write { db in
            try db.execute(
                script: "INSERT INTO tag VALUES (2, 'someday'), (3, 'home'); INSERT INTO item_tag VALUES (1, 2), (1, 3), (3, 3);")
        }
        let byName = StoreRequest<Tag>().filter { $0.name != "someday" }.order { $0.name.ascending }
        let sortedTags = try store.read { db in try db.fetch(StoreRequest<Item>(), including: Item.tags, targets: byName) }
        let twoTags = StoreRequest<Item>().filter(Item.tags.count { $0.name != "someday" } >= 2)
        #expect(sortedTags.map { $0.1.map(\.name) } == [["home", "urgent"], [], ["home", "urgent"], []])
        #expect(try store.read { db in try db.fetch(twoTags).map(\.title) } == ["Milk", "Report"])
    }

    @Test func predicates() throws {
        let groceries = StoreRequest<Item>().filter(Item.list.name == "Groceries").order(Item.list.name.ascending)
        let busy = StoreRequest<TodoList>().filter(TodoList.items.any { $0.done == false })
        let big = StoreRequest<TodoList>().filter(TodoList.items.count > 3)
        let urgent = StoreRequest<Item>().filter(Item.tags.any { $0.name == "urgent" })
        let orphans = StoreRequest<Item>().filter(!Item.list.exists)
        let twoTags = StoreRequest<Item>().filter(Item.tags.count { $0.name != "someday" } >= 2)
        let titles = { (request: StoreRequest<Item>) in try store.read { db in try db.fetch(request).map(\.title) } }
        let names = { (request: StoreRequest<TodoList>) in try store.read { db in try db.fetch(request).map(\.name) } }
        #expect(try titles(groceries) == ["Milk", "Bread"])
        #expect(try names(busy) == ["Groceries"])
        #expect(try names(big).isEmpty)
        #expect(try titles(urgent) == ["Milk", "Report"])
        #expect(try titles(orphans) == ["Loose"])
        #expect(try titles(twoTags).isEmpty, "one tag each")
    }
}
