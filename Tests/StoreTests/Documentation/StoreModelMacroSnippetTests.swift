import SQLiteStoreCore
import SQLiteStoreMacros
import Testing

/// The snippet of the `@StoreModel` macro's documentation comment, verbatim
/// (`.ci/doc-snippets` finds it here).
@Suite struct StoreModelMacroSnippetTests {
    @StoreModel
    struct Item {
        var id: Int64?  // the primary key: Int64? (rowid), Int64, UUID or String
        var title: String
        @StoreColumn("is_done") var done: Bool  // a column named otherwise
        @StoreIgnored var isSelected = false  // not stored
    }

    @Test func macroSnippetRuns() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(
            schema: """
                CREATE TABLE item(id INTEGER PRIMARY KEY, title TEXT NOT NULL, is_done INTEGER NOT NULL);
                INSERT INTO item(title, is_done) VALUES ('Walk', 1), ('Buy milk', 0), ('Call', 0);
                """)
        try store.read { db in
            try db.check(Item.self)
            let open = try db.fetch(StoreRequest<Item>().filter { $0.done == false }.order { $0.title.ascending })
            #expect(open.map(\.title) == ["Buy milk", "Call"])
            #expect(open.allSatisfy { !$0.isSelected })
        }
    }
}
