import Foundation
import Observation
import SQLiteStore
import TestSupport
import Testing

#if canImport(SwiftUI)
import SwiftUI
#endif

#if canImport(SwiftUI)
// `LiveQuery`'s snippet.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
struct ItemsView: View {
    @LiveQuery(StoreRequest<Item>().order { $0.title.ascending }) var items

    var body: some View {
        List(items) { item in Text(item.title) }
    }
}
#endif

/// `LiveQuery`'s snippet's declaration, run on every platform.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor final class ItemsHolder {
    @LiveQuery(StoreRequest<Item>().order { $0.title.ascending }) var items
}

extension Item: Identifiable {}

// `LiveResults`'s snippet.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
actor Exporter {
    let store: Store
    lazy var items = LiveResults(StoreRequest<Item>().order(Column("title").ascending), in: store, isolation: self)
    init(store: Store) { self.store = store }
    func titles() async throws -> [String] {
        try await items.waitUntilCurrent()
        return items.map(\.title)
    }
}

/// What `EventHandler`'s snippet shows the watched title in.
@MainActor final class Label {
    var text: String?
}

/// What `DiffableSnapshot`'s snippet hands its snapshots to: a diffable data source in an app.
@MainActor final class SnapshotRecorder {
    var applied = 0
    func apply<Snapshot>(_ snapshot: Snapshot) { applied += 1 }
}

#if !((canImport(UIKit) && !os(watchOS)) || canImport(AppKit))
extension DiffableSnapshot {
    /// Where there is no `NSDiffableDataSourceSnapshot` (Linux, watchOS), the snapshot itself.
    var appleSnapshot: DiffableSnapshot { self }
}
#endif

/// The snippets of `SQLiteStoreResults`' documentation comments, verbatim, run against a real
/// store (`.ci/doc-snippets` finds each one here).
@MainActor
@Suite(.timeLimit(.minutes(10))) struct ResultsSnippetTests {
    let directory: TemporaryDirectory
    let store: Store

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: SnippetSchema.sql)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func controllerSnippetsRun() async throws {
        var applied: [ChangeSet] = []
        func apply(_ changeSet: ChangeSet) { applied.append(changeSet) }
        // --- FetchedResultsController
        let controller = FetchedResultsController(
            store: store,
            request: StoreRequest<Item>()
                .order(Column("category").ascending, Column("title").ascending)
                .sectioned(by: Column("category")).batchSize(50))
        controller.didChange = { change in print(change.changeSet) }  // apply it in performBatchUpdates
        try controller.performFetch()
        let first = try controller.object(at: IndexPath(row: 0, section: 0))
        // --- FetchedResultsChanges
        for try await change in controller.changes(initial: true) {
            apply(change.changeSet)  // on the actor running the loop
            // --- end
            break
        }
        #expect(first.title == "Bread")
        #expect(applied.count == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func diffableSnapshotSnippetRuns() async throws {
        let controller = FetchedResultsController(store: store, request: StoreRequest<Item>().order(Column("title").ascending))
        try controller.performFetch()
        let dataSource = SnapshotRecorder()
        // --- DiffableSnapshot
        var snapshot = DiffableSnapshot()
        for try await change in controller.changes(initial: true) {
            snapshot = try snapshot.applying(change)
            dataSource.apply(snapshot.appleSnapshot)  // UIKit/AppKit, see `appleSnapshot`
            // --- end
            break
        }
        #expect(snapshot.itemIdentifiers.count == 3)
        #expect(dataSource.applied == 1)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func observableSnippetsRun() async throws {
        let holder = await Store.withDefault(store) { ItemsHolder() }
        try await holder.items.waitUntilCurrent()
        #expect(holder.items.map(\.title) == ["Bread", "Buy milk", "Slides"])
        #expect(try await Exporter(store: store).titles() == ["Bread", "Buy milk", "Slides"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func eventHandlerSnippetRuns() async throws {
        let id = ObjectID(table: "item", rowID: 1)
        let label = Label()
        // --- EventHandler
        let watcher = ChangeWatcher<Item>(
            store: store, watching: [id],
            handler: .mainActor { event in
                label.text = event.updated[id]?.title
            })
        // --- end
        try await store.write { db in try db.execute(sql: "UPDATE item SET title = 'Rye bread' WHERE id = 1") }
        while label.text == nil { try await Task.sleep(for: .milliseconds(1)) }
        #expect(label.text == "Rye bread")
        withExtendedLifetime(watcher) {}
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func changeWatcherSnippetRuns() async throws {
        let all = try await store.read { db in try db.fetch(StoreRequest<Item>().order(Column("id").ascending)) }
        let (item, other) = (all[0], all[1])
        let writer = renameUntilCancelled(1)
        defer { writer.cancel() }
        var events: [ChangeWatcher<Item>.Event] = []
        // --- ChangeWatcher
        let watcher = ChangeWatcher<Item>(
            store: store, watching: [item.objectID!],
            handler: .mainActor { event in
                for (id, item) in event.updated { print(id, item.title) }
            })
        watcher.watch([other.objectID!])  // the set can grow…
        for await event in watcher.events() {  // …and events also come as a stream
            print(event.updated.count, event.deleted.count)
            // --- end
            events.append(event)
            break
        }
        #expect(events.first?.updated[ObjectID(table: "item", rowID: 1)]?.title.hasPrefix("Renamed") == true)
    }

    /// Renames the item `rowID`, again and again, until the task is cancelled: a change
    /// arrives whenever the snippet's loop starts listening.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func renameUntilCancelled(_ rowID: Int64) -> Task<Void, Never> {
        Task { [store] in
            var round = 0
            while !Task.isCancelled {
                round += 1
                let title = "Renamed \(round)"
                try? await store.write { db in
                    try db.execute(sql: "UPDATE item SET title = ? WHERE id = ?", arguments: [title, rowID])
                }
                await Task.yield()
            }
        }
    }
}

/// The snippets print what they see; the tests check the values instead.
private func print(_ items: Any...) {}
