import Foundation
import SQLiteStoreCore
import SQLiteStoreMacros
import Testing

/// The README's quick start, verbatim, so that it keeps compiling and working.
@Suite struct ReadmeQuickStartTests {
    @StoreModel
    struct Item: Equatable {
        var id: Int64  // the rowid; UUID and String keys work too
        var title: String
        var done: Bool = false
    }

    @Test func quickStartRuns() throws {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        // --- README snippet
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID()).sqlite").path
        // --- end
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        // --- README snippet
        let store = try Store(path: path)  // WAL, synchronous=NORMAL, foreign keys on, 4 readers
        try store.write { db in
            try db.execute(sql: "CREATE TABLE item(id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL)")
            try db.check(Item.self)  // throws one error listing every difference from the model
            var milk = try db.insert(Item.Draft(title: "Buy milk"))  // a draft has no id: SQLite picks it
            milk.done = true
            try db.update(milk, columns: \.done)
            try db.insert(Item.Draft(title: "Bread"))
        }
        let open = try store.read { db in
            try db.fetch(StoreRequest<Item>().filter { $0.done == false }.order { $0.title.ascending })
        }
        print(open.map(\.title))  // ["Bread"]
        // --- end

        #expect(printed == [#"["Bread"]"#])
        let all = try store.read { db in try db.fetch(StoreRequest<Item>()) }
        #expect(all == [Item(id: 1, title: "Buy milk", done: true), Item(id: 2, title: "Bread", done: false)])
        try store.close()
    }

    @Test(.timeLimit(.minutes(10))) func watchingChangesRuns() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(
            schema: "CREATE TABLE item(id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL);")
        let stream = store.changes(in: ["item"])
        try await store.write { db in try db.execute(sql: "INSERT INTO item(title, done) VALUES ('a', 0)") }
        for await changes in stream {
            let items = changes.changes(in: "item")
            #expect(items.inserted == [1] && items.updated.isEmpty && items.deleted.isEmpty && !items.isWhollyChanged)
            break
        }
    }
}
