import Foundation
import SQLiteStore
import Testing
import TodoKit

/// The screen's and the rows' commands write what they say, read back from the store, and
/// refuse blank input without writing.
@MainActor
@Suite("Commands")
struct CommandTests {
    let folder: TemporaryFolder
    let store: Store
    let screen: TodoScreen

    init() throws {
        let opened = try OpenedScreen()
        (folder, store, screen) = (opened.folder, opened.store, opened.screen)
    }

    private func stored(_ id: UUID) throws -> TodoItem? {
        try store.read { db in try db.fetchOne(TodoItem.self, id: id) }
    }

    /// A list and an item added through the screen's commands.
    private func addMilkToGroceries() async throws -> (TodoList, TodoItem) {
        let list = try #require(await screen.addList.execute("Groceries").output)
        let item = try #require(await screen.addItem.execute(TodoItem.Draft(listID: list.id, title: "Milk")).output)
        return (list, item)
    }

    /// The started view model of `item`'s row.
    private func row(of item: TodoItem) throws -> TodoItemRow {
        let position = try #require(screen.items.firstIndex { $0.id == item.id })
        let row = screen.row(for: try #require(screen.items.objectID(at: position)))
        try row.start()
        return row
    }

    @Test("Adding a list and an item stores them, trimmed, and the screen shows them when the command returns")
    func addListAndItem() async throws {
        let list = try #require(await screen.addList.execute("  Groceries ").output)
        let item = try #require(await screen.addItem.execute(TodoItem.Draft(listID: list.id, title: "Milk\n")).output)
        #expect(list.name == "Groceries")
        #expect(try await store.read { db in try db.fetch(StoreRequest<TodoList>()) } == [list])
        #expect(try stored(item.id) == item)
        #expect(item.title == "Milk" && item.listID == list.id && !item.done && item.notes == "")
        #expect(screen.lines == ["Groceries: Milk"])
        #expect(screen.list(named: "Groceries") == list)
    }

    @Test("A blank list name or item title is refused with a typed error, and nothing is written")
    func blankInputRefused() async throws {
        let (_, milk) = try await addMilkToGroceries()
        #expect(await screen.addList.execute("   ").error as? TodoInputError == .blankName)
        #expect(await screen.addItem.execute(TodoItem.Draft(listID: milk.listID, title: " ")).error as? TodoInputError == .blankTitle)
        let row = try row(of: milk)
        #expect(await row.rename.execute("\t").error as? TodoInputError == .blankTitle)
        #expect(try await store.read { db in try db.fetchCount(StoreRequest<TodoList>()) } == 1)
        #expect(try await store.read { db in try db.fetch(StoreRequest<TodoItem>()) } == [milk])
    }

    @Test("A row's commands toggle, rename, edit the notes of, move and delete its item")
    func rowCommands() async throws {
        let (_, milk) = try await addMilkToGroceries()
        let home = try #require(await screen.addList.execute("Home").output)
        let row = try row(of: milk)

        #expect(await row.toggleDone.execute().error == nil)
        #expect(try stored(milk.id)?.done == true)
        #expect(await row.toggleDone.execute().error == nil)
        #expect(try stored(milk.id)?.done == false)

        #expect(await row.rename.execute(" Oat milk ").error == nil)
        #expect(try stored(milk.id)?.title == "Oat milk")

        #expect(await row.editNotes.execute("the barista one").error == nil)
        #expect(try stored(milk.id)?.notes == "the barista one")

        #expect(await row.moveToList.execute(home.id).error == nil)
        #expect(try stored(milk.id)?.listID == home.id)
        #expect(await eventually { row.listName == "Home" })

        #expect(await row.deleteItem.execute().error == nil)
        #expect(try stored(milk.id) == nil)
        #expect(await eventually { row.isDeleted })
        #expect(try await store.read { db in try db.fetchCount(StoreRequest<TodoList>()) } == 2, "the lists stay")
    }
}
