import Foundation
import SQLiteStore
import TestSupport
import Testing

/// The Relationships article's snippets of counts: live results ordered and sectioned by a
/// related count, counts read with each row, and a related least value, verbatim (`.ci/doc-snippets` finds them here).
@MainActor @Suite(.timeLimit(.minutes(10))) struct CountSnippetTests {
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

    /// Bread is open and due at 20, Buy milk due at 10 but done, Slides (Work) has no due date.
    private func setDueDates() throws {
        try store.write { db in
            try db.execute(sql: "UPDATE item SET due = 20 WHERE title = 'Bread'")
            try db.execute(sql: "UPDATE item SET due = 10, done = 1 WHERE title = 'Buy milk'")
        }
    }

    @Test func listsByNextDueDateSnippetRuns() throws {
        try setDueDates()
        let nextDue = TodoList.items.min(\.due) { $0.done == false }
        let byNextDue = StoreRequest<TodoList>().order(nextDue.ascending).including(nextDue, as: "nextDue")
        let dueRows = try store.read { db in try db.fetchRows(byNextDue) }
        let earliest = dueRows[0].value(named: "nextDue")  // NULL: Work has no open item with a due date
        #expect(earliest == .null)
        #expect(dueRows.map(\.name) == ["Work", "Groceries"])
        #expect(dueRows[1].value(named: "nextDue") == .real(20))
    }

    @Test func listsSectionedByNextDueDateFollowADueDateChange() async throws {
        try setDueDates()
        let nextDue = TodoList.items.min(\.due) { $0.done == false }
        let lists = FetchedResultsController(
            store: store, request: StoreRequest<TodoList>().order(nextDue.ascending).sectioned(by: nextDue))
        try lists.performFetch()
        #expect(lists.sections.map(\.name) == [nil, "20.0"])
        try await store.write { db in try db.execute(sql: "UPDATE item SET due = 5 WHERE title = 'Slides'") }
        try await lists.waitUntilCurrent()
        #expect(lists.sections.map(\.name) == ["5.0", "20.0"])
        #expect(try lists.object(at: IndexPath(row: 0, section: 0)).name == "Work")
    }
}
