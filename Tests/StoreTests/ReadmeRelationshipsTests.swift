import SQLiteStoreCore
import SQLiteStoreMacros
import Testing

/// The README's relationships section, verbatim, so that it keeps compiling and working.
@Suite struct ReadmeRelationshipsTests {
    @StoreModel(table: "list")
    struct TodoList {
        var id: Int64?
        var name: String
        static let items = ToMany("items", inverse: Item.list)  // the inverse of Item.list
    }

    @StoreModel
    struct Item {
        var id: Int64?
        @StoreColumn("list_id") var listID: Int64?
        var title: String
        var done: Bool
        static let list = ToOne<Item, TodoList>("list", foreignKey: "list_id")
        static var storeRelationships: [AnyRelationship] { [AnyRelationship(list)] }  // for db.check
    }

    @Test func relationshipsRun() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(
            schema: """
                CREATE TABLE list(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE item(id INTEGER PRIMARY KEY, list_id INTEGER REFERENCES list(id) ON DELETE CASCADE,
                                  title TEXT NOT NULL, done INTEGER NOT NULL);
                INSERT INTO list VALUES (1, 'Groceries'), (2, 'Work'), (3, 'Done');
                INSERT INTO item VALUES (1, 1, 'Milk', 0), (2, 1, 'Bread', 1), (3, 2, 'Report', 0), (4, 3, 'Old', 1);
                """)
        try store.read { db in try db.check(Item.self) }

        let lists = try store.read { db in  // [(TodoList, [Item])], in 2 statements for any number of lists
            try db.fetch(StoreRequest<TodoList>().filter(TodoList.items.any { $0.done == false }), including: TodoList.items)
        }
        let groceries = try store.read { db in
            try db.fetch(StoreRequest<Item>().filter(Item.list.name == "Groceries").order { $0.title.ascending })
        }

        #expect(lists.map { $0.0.name } == ["Groceries", "Work"])
        #expect(lists.map { $0.1.map(\.title) } == [["Milk", "Bread"], ["Report"]])
        #expect(groceries.map(\.title) == ["Bread", "Milk"])
    }
}
