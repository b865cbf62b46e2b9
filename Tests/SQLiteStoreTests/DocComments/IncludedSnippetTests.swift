import Foundation
import SQLiteStore
import TestSupport
import Testing

/// The snippets of requests that include related objects, verbatim: the Relationships
/// article's, `Database.fetchRows(_:)`'s, `Database.fetch(_:as:)`'s and
/// `FetchedResultsController.row(at:)`'s (`.ci/doc-snippets` finds each one here).
@MainActor @Suite(.timeLimit(.minutes(10))) struct IncludedSnippetTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: SnippetSchema.sql)
    }

    struct ItemRow: Decodable {
        var item: Item
        var list: TodoList?
        var tags: [Tag]
    }

    @Test func fetchRowsSnippetRuns() throws {
        let request = StoreRequest<Item>().order { $0.title.ascending }.including(Item.list).including(all: Item.tags)
        let rows = try store.read { db in try db.fetchRows(request) }
        for row in rows { print(row.title, row.list?.name ?? "no list", row.tags.map(\.name)) }
        #expect(
            rows.map { "\($0.title) \($0.list?.name ?? "-") \($0.tags.map(\.name))" } == [
                "Bread Groceries []", "Buy milk Groceries [\"urgent\"]", "Slides Work []",
            ])

        let (_, statements) = try store.read { db in try db.recordingStatements { try db.fetchRows(request) } }
        #expect(statements.count == 3, "\(statements)")

        let itemRows = try store.read { db in try db.fetch(request, as: ItemRow.self) }
        let first = try rows[0].decode(ItemRow.self)
        #expect(itemRows.map(\.item.title) == ["Bread", "Buy milk", "Slides"])
        #expect(first.list?.name == "Groceries" && first.tags.isEmpty)
    }

    @Test func controllerRowSnippetRuns() throws {
        let request = StoreRequest<Item>().order { $0.title.ascending }.including(Item.list).including(all: Item.tags)
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        let first = try controller.row(at: IndexPath(row: 0, section: 0))
        print(first.title, first.list?.name ?? "no list", first.tags.map(\.name))
        #expect(first.list?.name == "Groceries")
    }

    @Test func liveRowSnippetRuns() async throws {
        let request = StoreRequest<Item>().order { $0.title.ascending }.including(Item.list).including(all: Item.tags)
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        let row = try controller.row(at: IndexPath(row: 0, section: 0))
        let shown = try row.decode(ItemRow.self)
        #expect(shown.list?.name == "Groceries")
        try await store.write { db in try db.execute(sql: "INSERT INTO item_tag(item_id, tag_id) VALUES (1, 1)") }
        try await controller.waitUntilCurrent()
        #expect(try controller.row(at: IndexPath(row: 0, section: 0)).tags.map(\.name) == ["urgent"])
    }
}
