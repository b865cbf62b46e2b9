import Foundation
import SQLiteStore
import TestSupport
import Testing

/// The snippets of `SQLiteStoreCore`'s documentation comments, verbatim, run against a real
/// store (`.ci/doc-snippets` finds each one here).
@Suite(.timeLimit(.minutes(10))) struct CoreSnippetTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: SnippetSchema.sql)
    }

    @Test func storeSnippetRuns() throws {
        let path = directory.path("app.sqlite")
        // --- Store
        let store = try Store(path: path)
        try store.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
        let count = try store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM t") }
        // --- end
        #expect(count == 0)
    }

    @Test func closeSnippetRuns() throws {
        let path = directory.path("closed.sqlite")
        // --- Store.close()
        let store = try Store(path: path)
        try store.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
        try store.close()
        try FileManager.default.removeItem(atPath: path)  // no -wal or -shm is left beside it
        // --- end
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }

    @Test func changesSnippetRuns() async throws {
        let writer = insertUntilCancelled()
        defer { writer.cancel() }
        var inserted: [Set<Int64>] = []
        // --- Store.changes(in:coalescing:)
        for await changes in store.changes(in: ["item"]) {
            print(changes.changes(in: "item").inserted)
            // --- end
            inserted.append(changes.changes(in: "item").inserted)
            break
        }
        #expect(inserted.first?.count == 1)
    }

    @Test func coalescingChangesSnippetRuns() async throws {
        let writer = insertUntilCancelled()
        defer { writer.cancel() }
        var refreshed: [TableChanges] = []
        func refresh(_ changes: TableChanges) async { refreshed.append(changes) }
        // --- Store.changes(in:coalescing:), coalescing
        for await changes in store.changes(in: ["item"], coalescing: true) {
            await refresh(changes.changes(in: "item"))  // however slow, nothing piles up
            // --- end
            break
        }
        #expect(refreshed.first?.inserted.isEmpty == false)
    }

    @Test func migrationSnippetsRun() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Migrations").path
        let store = try Store(path: directory.path("migrated.sqlite"))
        // --- Migrator
        var migrator = try Migrator(folder: folder)  // the folder of `NNNN_name.sql` files
        try migrator.add(
            Migration(version: 100, name: "backfill") { db in try db.execute(sql: "UPDATE item SET done = 0 WHERE done IS NULL") })
        try migrator.migrate(store)
        // --- Migration
        let addNotes = Migration(version: 5, name: "add_notes") { db in
            try db.execute(sql: "ALTER TABLE item ADD COLUMN notes TEXT")
        } down: { db in
            try db.execute(sql: "ALTER TABLE item DROP COLUMN notes")
        }
        // --- end
        var own = Migrator()
        try own.add(addNotes)
        try own.migrate(self.store)
        let columns = try self.store.read { db in
            try db.fetchValue(Int.self, sql: "SELECT count(*) FROM pragma_table_info('item') WHERE name = 'notes'")
        }
        #expect(columns == 1)
        let applied = try store.read { db in try db.fetchValue(Int.self, sql: "SELECT max(version) FROM store_migrations") }
        #expect(applied == 100)
    }

    @Test func recordingStatementsSnippetRuns() throws {
        let (tagged, statements) = try store.read { db in
            try db.recordingStatements { try db.fetch(StoreRequest<Item>(), including: Item.tags) }
        }
        #expect(tagged.count == 3)
        #expect(statements.count == 3, "the items, the pairs of the join table, the tags: \(statements)")
    }

    @Test func modelAndRelationshipSnippetsRun() throws {
        try store.read { db in try db.check(Item.self) }
        try store.read { db in
            // --- Database.fetch(_:counting:)
            let counts = try db.fetch(StoreRequest<TodoList>(), counting: TodoList.items)
            // --- Database.fetch(_:including:) with a many-to-many relationship
            let tagged = try db.fetch(StoreRequest<Item>(), including: Item.tags)
            for (item, tags) in tagged { print(item.title, tags.map(\.name)) }
            let byName = StoreRequest<Tag>().order(Column("name").ascending)
            let sorted = try db.fetch(StoreRequest<Item>(), including: Item.tags, targets: byName)
            // --- with a to-many relationship
            let lists = try db.fetch(StoreRequest<TodoList>(), including: TodoList.items)
            for (list, items) in lists { print(list.name, items.count) }
            // --- with a to-one relationship
            let items = try db.fetch(StoreRequest<Item>().order { $0.title.ascending }, including: Item.list)
            for (item, list) in items { print(item.title, list?.name ?? "no list") }
            // --- end
            #expect(counts.map { $0.1 } == [2, 1])
            #expect(tagged.map { $0.1.map(\.name) } == [[], ["urgent"], []])
            #expect(sorted.map { $0.1.map(\.name) } == [[], ["urgent"], []])
            #expect(lists.map { $0.1.count } == [2, 1])
            #expect(items.map { $0.1?.name } == ["Groceries", "Groceries", "Work"])
        }
    }

    @Test func requestSnippetsRun() throws {
        // --- ToOneLink
        let itemList = ToOneLink(name: "list", childTable: "item", foreignKey: "list_id", parentTable: "list")
        let byListName = StoreRequest<Item>().order(Column("name", through: itemList).ascending)
        // --- Column
        let overdue = Column("due") < Date.now && Column("done") == false
        // --- StoreRequest
        let request = StoreRequest<Item>()
            .filter(Column("done") == false)
            .order(Column("category").ascending, Column("position").ascending)
            .sectioned(by: Column("category"))
        // --- end
        let typed = typedRequest()
        let results = try store.read { db in
            (
                try db.fetch(byListName).map(\.title), try db.fetch(StoreRequest<Item>().filter(overdue)).count,
                try db.fetch(request).map(\.title), try db.fetch(typed).map(\.title)
            )
        }
        #expect(results.0.last == "Slides")
        #expect(results.1 == 0)
        #expect(results.2 == ["Bread", "Buy milk", "Slides"])
        #expect(results.3 == ["Buy milk"])
    }

    @Test func collationSnippetRuns() throws {
        // --- Collation
        var configuration = StoreConfiguration()
        configuration.collations = [.localized(Locale(identifier: "sv_SE"))]
        let request = StoreRequest<Item>().order(Column("title").ascending(collation: .localized(Locale(identifier: "sv_SE"))))
        // --- end
        let store = try directory.makeStore(named: "swedish.sqlite", configuration: configuration, schema: SnippetSchema.sql)
        #expect(try store.read { db in try db.fetch(request) }.count == 3)
    }

    /// `TypedColumn`'s snippet.
    private func typedRequest() -> StoreRequest<Item> {
        let request = StoreRequest<Item>()
            .filter { $0.done == false && $0.title.hasPrefix("Buy") }
            .order { $0.title.ascending(collation: .nocase) }
        return request
    }

    /// Inserts an item, again and again, until the task is cancelled: a change arrives
    /// whenever the snippet's loop starts listening.
    private func insertUntilCancelled() -> Task<Void, Never> {
        Task { [store] in
            while !Task.isCancelled {
                try? await store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('More')") }
                await Task.yield()
            }
        }
    }
}

/// The snippets print what they read; the tests check the values instead.
private func print(_ items: Any...) {}
