import Foundation
import SQLiteStore
import Testing
import TodoKit

/// A row's view model follows its item, whoever writes it, and reports the item's deletion.
@MainActor
@Suite("The row view model")
struct RowViewModelTests {
    let folder: TemporaryFolder
    let store: Store
    let screen: TodoScreen
    let home: TodoList
    let work: TodoList

    init() throws {
        let opened = try OpenedScreen()
        (folder, store, screen) = (opened.folder, opened.store, opened.screen)
        (home, work) = try store.write { db in
            (try db.insert(TodoList.Draft(name: "Home")), try db.insert(TodoList.Draft(name: "Work")))
        }
    }

    /// The view model of the row showing `item`, started.
    private func startedRow(of item: TodoItem) async throws -> TodoItemRow {
        try await screen.waitUntilCurrent()
        let position = try #require(screen.items.firstIndex { $0.id == item.id })
        let row = screen.row(for: try #require(screen.items.objectID(at: position)))
        try row.start()
        return row
    }

    @Test("The row shows its item and follows its title, state, notes and list, written anywhere")
    func followsItsItem() async throws {
        let milk = try await store.write { [home] db in try db.insert(TodoItem.Draft(listID: home.id, title: "Milk")) }
        let row = try await startedRow(of: milk)
        #expect(row.title == "Milk")
        #expect(!row.isDone)
        #expect(row.notes == "")
        #expect(row.listName == "Home")

        try await store.write { db in
            try db.execute(
                sql: "UPDATE items SET title = 'Oat milk', done = 1, notes = 'the barista one' WHERE id = ?", arguments: [milk.id])
        }
        #expect(await eventually { row.title == "Oat milk" })
        #expect(row.isDone)
        #expect(row.notes == "the barista one")

        try await store.write { [home] db in try db.execute(sql: "UPDATE lists SET name = 'House' WHERE id = ?", arguments: [home.id]) }
        #expect(await eventually { row.listName == "House" }, "the list's rename reaches the row through TodoItem.list")

        try await store.write { [work] db in
            try db.execute(sql: "UPDATE items SET list_id = ? WHERE id = ?", arguments: [work.id, milk.id])
        }
        #expect(await eventually { row.listName == "Work" }, "the row follows its item into another list")
        #expect(!row.isDeleted)
        #expect(row.object?.listID == work.id)
    }

    @Test("The row reports its item's deletion, also when deleting its list deletes it")
    func reportsDeletion() async throws {
        let (milk, bread) = try await store.write { [home] db in
            (try db.insert(TodoItem.Draft(listID: home.id, title: "Milk")), try db.insert(TodoItem.Draft(listID: home.id, title: "Bread")))
        }
        let milkRow = try await startedRow(of: milk)
        let breadRow = try await startedRow(of: bread)

        try await store.write { db in try db.execute(sql: "DELETE FROM items WHERE id = ?", arguments: [milk.id]) }
        #expect(await eventually { milkRow.isDeleted })
        #expect(milkRow.object == nil)
        #expect(!milkRow.isObserving)
        #expect(!breadRow.isDeleted)

        try await store.write { [home] db in try db.execute(sql: "DELETE FROM lists WHERE id = ?", arguments: [home.id]) }
        #expect(await eventually { breadRow.isDeleted }, "ON DELETE CASCADE deleted the item with its list")
    }
}
