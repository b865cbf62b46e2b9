import SQLiteStoreCore
import SQLiteStoreMacros
import Testing

/// The snippets of the `@StoreModel` macro's documentation and of `StoreDraft`, verbatim
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

    @StoreModel
    struct Reminder {
        var id: Int64  // not optional: the draft's key is
        var text: String
        var pinned: Bool = false
    }

    @Test func draftSnippetRuns() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(
            schema: "CREATE TABLE reminder(id INTEGER PRIMARY KEY, text TEXT NOT NULL, pinned INTEGER NOT NULL)")
        try store.write { db in
            let reminder = try db.insert(Reminder.Draft(text: "Buy milk"))  // reminder.id: the rowid SQLite chose
            #expect(reminder.id == 1 && reminder.text == "Buy milk" && !reminder.pinned)
            #expect(try db.fetchOne(Reminder.self, id: 1)?.text == "Buy milk")
        }
    }
}
