import Foundation
import Observation
import SQLiteStore
import TestSupport
import Testing

#if canImport(SwiftUI)
import SwiftUI
#endif

// The snippets of the article "Observing changes" (SQLiteStoreResults.docc), verbatim: edit
// both together. The view model's is `StoreViewModel`'s own (ViewModelsSnippetTests), and
// `@LiveQuery`'s declaration runs in `ItemsHolder` (ResultsSnippetTests) where there is no SwiftUI.

#if canImport(SwiftUI)
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
struct ItemList: View {
    @LiveQuery(StoreRequest<Item>().order { $0.title.ascending }) var items
    var body: some View { List(items) { item in Text(item.title) } }
}
#endif

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor @Observable final class Groceries {
    let items: LiveResults<Item>
    init(store: Store) { items = LiveResults(StoreRequest<Item>().filter(Column("done") == false), in: store) }
}

/// What the article's snippets print, line by line.
@MainActor private var printed: [String] = []

@MainActor private func print(_ items: Any...) {
    printed.append(items.map { "\($0)" }.joined(separator: " "))
}

@MainActor
@Suite(.timeLimit(.minutes(10)), .serialized) struct ObservingChangesArticleTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: SnippetSchema.sql)
        printed = []
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func liveCollectionSnippetsRun() async throws {
        let holder = await Store.withDefault(store) { ItemsHolder() }
        try await holder.items.waitUntilCurrent()
        #expect(holder.items.map(\.title) == ["Bread", "Buy milk", "Slides"])

        let groceries = Groceries(store: store)
        try await groceries.items.waitUntilCurrent()
        #expect(groceries.items.map(\.title) == ["Bread", "Buy milk", "Slides"])

        for try await change in LiveValues(StoreRequest<Item>().order(Column("title").ascending), in: store) {
            print(change.changeSet, change.values.map(\.title))
            break
        }
        #expect(printed == [#"ChangeSet(sectionInserts: [0]) ["Bread", "Buy milk", "Slides"]"#])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func controllerSnippetsRun() async throws {
        let controller = FetchedResultsController(
            store: store,
            request: StoreRequest<Item>()
                .order(Column("category").ascending, Column("title").ascending).sectioned(by: Column("category")).batchSize(50))
        controller.didChange = { change in print(change.changeSet) }  // apply it in performBatchUpdates
        try controller.performFetch()
        let first = try controller.object(at: IndexPath(row: 0, section: 0))
        #expect(first.title == "Bread")

        let writer = Task { [store] in
            try await store.write { db in try db.execute(sql: "INSERT INTO item(title, category) VALUES ('Eggs', 'bakery')") }
        }
        for try await change in controller.changes(initial: true) {
            print(change.changeSet, change.results.numberOfObjects)
            if change.results.numberOfObjects > 3 { break }
        }
        try await writer.value
        try await controller.waitUntilCurrent()
        #expect(printed.first == "ChangeSet(sectionInserts: [0, 1, 2]) 3")
        #expect(printed.contains("ChangeSet(inserts: [0.1])"), "didChange saw the insert of Eggs")
        #expect(printed.last == "ChangeSet(inserts: [0.1]) 4")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func watcherSnippetRuns() async throws {
        let id = ObjectID(table: "item", rowID: 1)
        let otherID = ObjectID(table: "item", rowID: 2)
        let watcher = ChangeWatcher<Item>(
            store: store, watching: [id],
            handler: .mainActor { event in
                if event.deleted.contains(id) { print("deleted") } else { print(event.updated[id]?.title ?? "") }
            })
        watcher.watch([otherID])  // the set grows and shrinks as you like
        #expect(watcher.watchedIDs == [id, otherID])
        try await store.write { db in try db.execute(sql: "UPDATE item SET title = 'Rye bread' WHERE id = 1") }
        try await store.write { db in try db.execute(sql: "DELETE FROM item WHERE id = 1") }
        while printed.count < 2 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(printed == ["Rye bread", "deleted"])
        withExtendedLifetime(watcher) {}
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func viewModelSnippetsRun() async throws {
        let viewModel = ItemViewModel(store: store, id: 2)
        try viewModel.start()
        #expect(viewModel.title == "Buy milk")

        let rows = FetchedDataSource(
            store: store, request: StoreRequest<Item>().order(Column("title").ascending),
            placeholder: { _ in "…" }
        ) { item in item.title }
        try rows.performFetch()
        let subscription = rows.changes.subscribe { changeSet in print(changeSet) }
        try await store.write { db in try db.execute(sql: "UPDATE item SET title = 'Milk' WHERE id = 2") }
        try await rows.controller.waitUntilCurrent()
        #expect(rows.allItems == [["Bread", "Milk", "Slides"]])
        #expect(printed == ["ChangeSet(updates: [0.1])"])
        withExtendedLifetime(subscription) {}
    }

    @Test func rowLevelSnippetRuns() async throws {
        let writer = Task { [store] in
            try await store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('Eggs')") }
        }
        for await changes in store.changes(in: ["item"]) {
            let items = changes.changes(in: "item")
            print(items.inserted, items.updated, items.deleted, items.isWhollyChanged)
            break
        }
        try await writer.value
        #expect(printed == ["[4] [] [] false"])
    }
}
