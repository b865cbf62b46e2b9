import Foundation
import SQLiteStore
import Testing
import TodoKit

/// The screen's live list, sectioned by list, after each commit: its sections and rows, and
/// the one change set that leads there from the rows before.
@MainActor
@Suite("The sectioned live list")
struct SectionedListTests {
    let folder: TemporaryFolder
    let store: Store
    let screen: TodoScreen

    init() throws {
        let opened = try OpenedScreen()
        (folder, store, screen) = (opened.folder, opened.store, opened.screen)
    }

    /// Commits `body` as another part of the app would, waits until the screen shows it, and
    /// checks that the change set it delivered turns the rows before into the rows after.
    private func commit(_ body: @escaping @Sendable (Database) throws -> Void) async throws {
        let before = screen.snapshot
        try await store.write(body)
        try await screen.waitUntilCurrent()
        let change = try #require(screen.items.lastChange)
        #expect(try change.applied(to: before, new: screen.snapshot) == screen.snapshot)
    }

    nonisolated private static func item(_ title: String, in list: UUID, done: Bool = false) -> TodoItem.Draft {
        TodoItem.Draft(listID: list, title: title, done: done)
    }

    @Test("Adding, toggling, moving and deleting items changes the sections and rows at once, one change set a commit")
    func followsEachCommit() async throws {
        let (home, work) = (UUID(), UUID())
        try await store.write { db in
            _ = try db.insert(TodoList.Draft(id: home, name: "Home"))
            _ = try db.insert(TodoList.Draft(id: work, name: "Work"))
        }
        try await screen.waitUntilCurrent()
        #expect(screen.lines == [], "a list without items has no section")

        try await commit { db in _ = try db.insert(Self.item("Milk", in: home)) }
        #expect(screen.lines == ["Home: Milk"])
        #expect(screen.items.lastChange == ChangeSet(sectionInserts: [0]))

        let bread = UUID()
        try await commit { db in
            _ = try db.insert(TodoItem.Draft(id: bread, listID: home, title: "Bread"))
            _ = try db.insert(Self.item("Report", in: work))
        }
        #expect(screen.lines == ["Home: Bread, Milk", "Work: Report"])
        #expect(screen.items.lastChange == ChangeSet(sectionInserts: [1], inserts: [Self.at(0, 0)]))

        // Done items go after open ones: Bread moves below Milk, and its row shows it done.
        try await commit { db in try db.execute(sql: "UPDATE items SET done = 1 WHERE id = ?", arguments: [bread]) }
        #expect(screen.lines == ["Home: Milk, ✓Bread", "Work: Report"])
        #expect(screen.items.lastChange == ChangeSet(moves: [ChangeSet.Move(from: Self.at(0, 0), to: Self.at(0, 1), isChanged: true)]))

        // Report moves to Home, and Work, left without items, loses its section.
        try await commit { db in
            try db.execute(sql: "UPDATE items SET list_id = ? WHERE title = 'Report'", arguments: [home])
        }
        #expect(screen.lines == ["Home: Milk, Report, ✓Bread"])
        #expect(screen.items.lastChange == ChangeSet(sectionDeletes: [1], inserts: [Self.at(0, 1)]))

        // A commit that changes none of the list's rows delivers nothing.
        let unchanged = screen.items.lastChange
        try await store.write { db in _ = try db.insert(TodoList.Draft(name: "Errands")) }
        try await screen.waitUntilCurrent()
        #expect(screen.lines == ["Home: Milk, Report, ✓Bread"])
        #expect(screen.items.lastChange == unchanged)

        try await commit { db in try db.execute(sql: "DELETE FROM items WHERE title = 'Milk'") }
        #expect(screen.lines == ["Home: Report, ✓Bread"])
        #expect(screen.items.lastChange == ChangeSet(deletes: [Self.at(0, 0)]))

        // Deleting the list deletes its items (ON DELETE CASCADE), in the same change.
        try await commit { db in try db.execute(sql: "DELETE FROM lists WHERE id = ?", arguments: [home]) }
        #expect(screen.lines == [])
        #expect(screen.items.lastChange == ChangeSet(sectionDeletes: [0]))
    }

    @Test("Renaming a list moves its section to the new name's place, with its items")
    func renamingAListMovesItsSection() async throws {
        let (errands, work) = (UUID(), UUID())
        try await screen.waitUntilCurrent()  // the first values: none
        try await commit { db in
            _ = try db.insert(TodoList.Draft(id: errands, name: "Errands"))
            _ = try db.insert(TodoList.Draft(id: work, name: "Work"))
            _ = try db.insert(Self.item("Stamps", in: errands))
            _ = try db.insert(Self.item("Report", in: work))
        }
        #expect(screen.lines == ["Errands: Stamps", "Work: Report"])
        try await commit { db in try db.execute(sql: "UPDATE lists SET name = 'Post office' WHERE id = ?", arguments: [errands]) }
        #expect(screen.lines == ["Post office: Stamps", "Work: Report"])
        try await commit { db in try db.execute(sql: "UPDATE lists SET name = 'Zoo' WHERE id = ?", arguments: [errands]) }
        #expect(screen.lines == ["Work: Report", "Zoo: Stamps"])
        #expect(screen.items.lastChange == ChangeSet(sectionDeletes: [0], sectionInserts: [1]))
    }

    /// Row `row` of section `section`, as change sets name it.
    nonisolated private static func at(_ section: Int, _ row: Int) -> IndexPath {
        IndexPath(row: row, section: section)
    }
}
