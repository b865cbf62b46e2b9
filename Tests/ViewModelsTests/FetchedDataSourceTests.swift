import Foundation
import SQLiteStoreCore
import SQLiteStoreResults
import SQLiteStoreViewModels
import Testing

@MainActor
@Suite("Fetched data source")
struct FetchedDataSourceTests {
    private let directory: TemporaryDirectory
    private let store: Store

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Chore.schema)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @discardableResult
    private func insert(_ title: String, room: String, rank: Int) throws -> Int64 {
        var chore = Chore(title: title, room: room, rank: rank)
        try store.write { db in try db.insert(&chore) }
        return chore.id ?? -1
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func deleteSynchronously(_ id: Int64) throws {
        try store.write { db in _ = try db.delete(Chore.self, id: id) }
    }

    /// Writes from another task, as another part of an app would.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func write(_ sql: String, _ arguments: [Int64] = []) async throws {
        let store = store
        try await Task.detached { try store.write { db in try db.execute(sql: sql, arguments: arguments) } }.value
    }

    /// Runs several statements in one transaction from another task.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func writeScript(_ script: String) async throws {
        let store = store
        try await Task.detached { try store.write { db in try db.execute(script: script) } }.value
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func waitUntilTheListShowsTheStore(_ list: InMemoryListView<ChoreCell>) async throws {
        let expected = try store.choreLinesByRoom()
        await waitUntil("the list shows \(expected)") { list.lines(describing: \.line) == expected }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func sectionsRowsAndHeadersComeFromTheController() throws {
        try insert("Dishes", room: "kitchen", rank: 2)
        try insert("Oven", room: "kitchen", rank: 1)
        try insert("Towels", room: "bath", rank: 1)
        let factory = ChoreCellFactory()
        let chores = factory.dataSource(store: store)
        try chores.performFetch()
        #expect(chores.numberOfSections == 2)
        #expect(chores.header(forSection: 0) == SectionHeader(title: "bath"))
        #expect(chores.header(forSection: 1) == SectionHeader(title: "kitchen"))
        #expect(chores.allItems.map { $0.map(\.title) } == [["Towels"], ["Oven", "Dishes"]])
        let flat = factory.dataSource(store: store, request: StoreRequest<Chore>().order(Column("title").ascending))
        try flat.performFetch()
        #expect(flat.numberOfSections == 1 && flat.header(forSection: 0) == nil)
        #expect(flat.items(inSection: 0).map(\.title) == ["Dishes", "Oven", "Towels"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aListAttachedBeforeTheFirstFetchGetsItAsAChangeSet() throws {
        try insert("Dishes", room: "kitchen", rank: 1)
        try insert("Towels", room: "bath", rank: 1)
        let chores = ChoreCellFactory().dataSource(store: store)
        let list = InMemoryListView(dataSource: chores)
        try chores.performFetch()
        #expect(list.appliedChangeSets.count == 1 && list.errors.isEmpty && list.reloadCount == 1)
        #expect(list.lines(describing: \.line) == (try store.choreLinesByRoom()))
        try chores.performFetch()
        #expect(list.appliedChangeSets.count == 1, "a fetch that finds the same results publishes nothing")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func changeSetsArePublishedAfterTheContentChanged() async throws {
        let first = try insert("Dishes", room: "kitchen", rank: 1)
        let chores = ChoreCellFactory().dataSource(store: store)
        try chores.performFetch()
        var seen: [[String]] = []
        let subscription = chores.changes.subscribe { [weak chores] _ in
            seen.append(chores?.allItems.flatMap { $0.map(\.title) } ?? [])
        }
        try await write("UPDATE chore SET title = 'Pans' WHERE id = ?", [first])
        await waitUntil("the update arrives") { !seen.isEmpty }
        #expect(seen == [["Pans"]])
        subscription.cancel()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func untouchedRowsKeepTheirViewModelsAndOnlyChangedRowsAreMadeAgain() async throws {
        let dishes = try insert("Dishes", room: "kitchen", rank: 2)
        let oven = try insert("Oven", room: "kitchen", rank: 3)
        let towels = try insert("Towels", room: "bath", rank: 1)
        let sink = try insert("Sink", room: "bath", rank: 2)
        let factory = ChoreCellFactory()
        let chores = factory.dataSource(store: store)
        try chores.performFetch()
        let list = InMemoryListView(dataSource: chores)
        #expect(factory.made == 4)
        var before = Dictionary(uniqueKeysWithValues: list.sections.joined().map { ($0.id, $0) })
        weak let sinkCell = before.removeValue(forKey: sink)
        // One transaction: an insert above everything, an update in place, a deletion, and a
        // row moving to another section with new values.
        try await writeScript(
            """
            INSERT INTO chore (title, room, rank) VALUES ('Fridge', 'kitchen', 1);
            UPDATE chore SET title = 'Plates' WHERE id = \(dishes);
            DELETE FROM chore WHERE id = \(sink);
            UPDATE chore SET room = 'bath', rank = 0 WHERE id = \(oven);
            """)
        try await waitUntilTheListShowsTheStore(list)
        let after = Dictionary(uniqueKeysWithValues: list.sections.joined().map { ($0.id, $0) })
        #expect(after[towels] === before[towels], "an untouched row keeps its view model")
        #expect(after[dishes] !== before[dishes] && after[dishes]?.title == "Plates", "an updated row gets a fresh one")
        #expect(after[oven] !== before[oven], "a row that moved because it changed gets a fresh one")
        #expect(sinkCell == nil, "a deleted row's view model is evicted")
        #expect(factory.made == 4 + 3, "only the inserted, updated and moved rows were made")
        #expect(list.errors.isEmpty && list.reloadCount == 1)
        #expect(chores.item(at: IndexPath(row: 1, section: 0)) === after[towels], "reading again hits the cache")
        #expect(factory.made == 7)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aRowShiftedByOthersKeepsItsViewModel() async throws {
        let towels = try insert("Towels", room: "bath", rank: 5)
        let chores = ChoreCellFactory().dataSource(store: store)
        try chores.performFetch()
        let list = InMemoryListView(dataSource: chores)
        let cell = try #require(list.sections.first?.first)
        try await write("INSERT INTO chore (title, room, rank) VALUES ('Mirror', 'bath', 1), ('Bins', 'attic', 1)")
        try await waitUntilTheListShowsTheStore(list)
        #expect(chores.results.indexPath(for: ObjectID(table: "chore", rowID: towels)) == IndexPath(row: 1, section: 1))
        #expect(list.sections[1][1] === cell)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func anObjectDeletedBeforeItsChangeSetArrivesShowsAPlaceholder() async throws {
        let dishes = try insert("Dishes", room: "kitchen", rank: 1)
        try insert("Oven", room: "kitchen", rank: 2)
        let chores = ChoreCellFactory().dataSource(store: store, request: Chore.byRoom.batchSize(2))
        try chores.performFetch()
        // Still on the main actor: the change set cannot be delivered before the read.
        try deleteSynchronously(dishes)
        let cell = chores.item(at: IndexPath(row: 0, section: 0))
        #expect(cell.title == "…" && cell.id == dishes)
        #expect(chores.lastError == .objectDeleted(ObjectID(table: "chore", rowID: dishes)))
        let list = InMemoryListView(dataSource: chores)
        try await waitUntilTheListShowsTheStore(list)
        #expect(list.lines(describing: \.line) == ["[kitchen]", "  #2 Oven"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aReleasedDataSourceLeaksNothingAndHearsNothingMore() async throws {
        try insert("Dishes", room: "kitchen", rank: 1)
        var chores: FetchedDataSource<Chore, ChoreCell>? = ChoreCellFactory().dataSource(store: store)
        try chores?.performFetch()
        let list = try #require(chores.map { InMemoryListView(dataSource: $0) })
        var calls = 0
        let subscription = chores?.changes.subscribe { _ in calls += 1 }
        try await write("INSERT INTO chore (title, room, rank) VALUES ('Oven', 'kitchen', 2)")
        try await waitUntilTheListShowsTheStore(list)
        #expect(calls == 1)
        weak let weakChores = chores
        weak let weakController = chores?.controller
        weak let weakCell = list.sections.first?.first
        chores = nil
        list.detach()  // the list held its data source until now
        list.reloadData()
        #expect(weakChores == nil && weakController == nil && weakCell == nil)
        // A live data source on the same store proves the next transaction was delivered.
        let sentinel = ChoreCellFactory().dataSource(store: store)
        try sentinel.performFetch()
        let sentinelList = InMemoryListView(dataSource: sentinel)
        try await write("INSERT INTO chore (title, room, rank) VALUES ('Sink', 'kitchen', 3)")
        try await waitUntilTheListShowsTheStore(sentinelList)
        #expect(calls == 1)
        #expect(list.sections.isEmpty && list.appliedChangeSets.count == 1)
        _ = subscription
    }
}

/// A data source no longer takes over its controller's `didChange`.
@MainActor
@Suite("Fetched data source beside other consumers")
struct FetchedDataSourceConsumersTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theControllersDidChangeStaysFreeForItsOwner() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(schema: Chore.schema)
        let controller = FetchedResultsController(store: store, request: Chore.byRoom)
        let chores = FetchedDataSource(controller: controller, placeholder: { _ in "…" }, makeViewModel: \.title)
        try chores.performFetch()
        var ownerSaw = 0
        controller.didChange = { _ in ownerSaw += 1 }
        let list = InMemoryListView(dataSource: chores)
        try await store.write { db in try db.execute(sql: "INSERT INTO chore(title, room, rank) VALUES ('dishes', 'kitchen', 1)") }
        try await controller.waitUntilCurrent()
        #expect(ownerSaw == 1)
        #expect(list.sections == [["dishes"]], "the data source still follows the controller")
    }
}
