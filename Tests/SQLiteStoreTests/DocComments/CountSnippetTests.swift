import Foundation
import SQLiteStore
import TestSupport
import Testing

/// The Relationships article's snippets of counts: live results ordered and sectioned by a
/// related count, and counts read with each row, verbatim (`.ci/doc-snippets` finds them here).
@MainActor @Suite(.timeLimit(.minutes(1))) struct CountSnippetTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: SnippetSchema.sql)
    }

    @Test func listsByOpenItemsSnippetRuns() async throws {
        let openItems = TodoList.items.count { $0.done == false }
        let byOpenItems = StoreRequest<TodoList>().order(openItems.descending, Column("name").ascending).sectioned(by: openItems)
        let lists = FetchedResultsController(store: store, request: byOpenItems)
        try lists.performFetch()
        let busiest = lists.sections[0].name  // "2": Groceries has two open items
        #expect(busiest == "2")
        #expect(try lists.object(at: IndexPath(row: 0, section: 0)).name == "Groceries")
        try await store.write { db in
            try db.execute(sql: "INSERT INTO item(title, list_id) VALUES ('Review', 2), ('Plan', 2), ('Email', 2)")
        }
        try await lists.waitUntilCurrent()
        #expect(lists.sections.map(\.name) == ["4", "2"])
        #expect(try lists.object(at: IndexPath(row: 0, section: 0)).name == "Work")
    }

    struct ListRow: Decodable {
        var list: TodoList
        var openItems: Int
    }

    @Test func countsShownWithEachRowSnippetRuns() throws {
        let openItems = TodoList.items.count { $0.done == false }
        let withCounts = StoreRequest<TodoList>().order(Column("name").ascending).including(openItems, as: "openItems")
        let shownLists = try store.read { db in try db.fetch(withCounts, as: ListRow.self) }
        #expect(shownLists.map { "\($0.list.name) \($0.openItems)" } == ["Groceries 2", "Work 1"])
        let rows = try store.read { db in try db.fetchRows(withCounts) }
        #expect(rows.map { $0.count(named: "openItems") } == [2, 1])
    }
}
