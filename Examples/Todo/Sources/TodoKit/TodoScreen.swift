import Foundation
import Observation
import SQLiteStore

/// The view model of the app's one screen: every item, sectioned by list, kept current as
/// transactions commit (local writes and other devices' alike), the lists, and the commands
/// that add lists and items. Each row has a view model of its own, ``TodoItemRow``.
///
/// Make it on the main actor (a SwiftUI view keeps it in `@State`): its results apply their
/// changes there. Nothing is read before the first read of ``items`` or ``lists``.
@MainActor
@Observable
public final class TodoScreen {
    /// The store the screen shows.
    public let store: Store
    /// Every item, sectioned by its list's name (``TodoItem/sectionedByList``): `sections`
    /// names each list and counts its items, `object(at:)` reads one.
    public let items: LiveResults<TodoItem>
    /// Every list, by name: what "add an item to…" and "move to…" offer.
    public let lists: LiveResults<TodoList>

    /// Adds a list with the given name (trimmed; a blank one is refused with
    /// ``TodoInputError/blankName``) and returns it once ``lists`` shows it.
    @ObservationIgnored public private(set) lazy var addList: Command<String, TodoList> = Command(owner: self) { screen, name in
        let name = try TodoInputError.trimmed(name, orThrow: .blankName)
        let list = try await screen.store.write { db in try db.insert(TodoList.Draft(name: name)) }
        try await screen.lists.waitUntilCurrent()
        return list
    }

    /// Adds the item (its title trimmed; a blank one is refused with
    /// ``TodoInputError/blankTitle``) and returns it once ``items`` shows it.
    @ObservationIgnored public private(set) lazy var addItem: Command<TodoItem.Draft, TodoItem> = Command(owner: self) { screen, draft in
        var draft = draft
        draft.title = try TodoInputError.trimmed(draft.title, orThrow: .blankTitle)
        let item = try await screen.store.write { [draft] db in try db.insert(draft) }
        try await screen.items.waitUntilCurrent()
        return item
    }

    /// The screen of `store`'s lists and items.
    public init(store: Store) {
        self.store = store
        items = LiveResults(TodoItem.sectionedByList, in: store)
        lists = LiveResults(TodoList.byName, in: store)
    }

    /// The identity of the item at `indexPath`, for its row's view model (``row(for:)``).
    public func objectID(at indexPath: IndexPath) -> ObjectID? {
        items.results.objectID(at: indexPath)
    }

    /// The identities of the items of section `section`, in order: what a SwiftUI `ForEach`
    /// iterates, one ``TodoItemRow`` each.
    public func objectIDs(inSection section: Int) -> [ObjectID] {
        guard items.sections.indices.contains(section) else { return [] }
        return (0..<items.sections[section].numberOfObjects).compactMap { row in
            objectID(at: IndexPath(row: row, section: section))
        }
    }

    /// A view model for the row of the item `objectID`; call its `start()` when the row shows.
    public func row(for objectID: ObjectID) -> TodoItemRow {
        TodoItemRow(store: store, objectID: objectID)
    }

    /// The list named `name`, if any (the first by name when several share it).
    public func list(named name: String) -> TodoList? {
        lists.first { $0.name == name }
    }

    /// The sections as they are now, with their items: for a terminal, a widget or a test. A
    /// SwiftUI view reads ``items`` instead, so that each row depends on its item alone.
    public var outline: [TodoSection] {
        var start = items.startIndex
        return items.sections.map { section in
            let end = start + section.numberOfObjects
            defer { start = end }
            return TodoSection(name: section.name ?? "", items: Array(items[start..<end]))
        }
    }

    /// Returns once ``items`` and ``lists`` show every transaction committed before the call.
    /// - Throws: the `FetchedResultsError` of results that stopped following the store.
    public func waitUntilCurrent() async throws {
        try await items.waitUntilCurrent()
        try await lists.waitUntilCurrent()
    }
}
