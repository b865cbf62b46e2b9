import Foundation
import Observation
import SQLiteStoreCore
import SQLiteStoreResults
import Testing

#if canImport(SwiftUI)
import SwiftUI
#endif

/// The model of the README's live-results snippets.
struct Item: StoreModel, Equatable {
    static let tableName = "item"
    var id: Int64?
    var title: String
    var done: Bool
}

// README, "Live query results": the observable form (the class is at file scope in the README too).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor @Observable final class Groceries {
    let items: LiveResults<Item>

    init(store: Store) {
        items = LiveResults(
            StoreRequest<Item>()
                .filter(Column("done") == false)
                .order(Column("title").ascending), in: store)
    }
}

#if canImport(SwiftUI)
// README, "SwiftUI": compiled where SwiftUI exists; what it reads is tested below on every platform.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct GroceriesView: View {
    @State private var groceries: Groceries

    init(store: Store) { _groceries = State(initialValue: Groceries(store: store)) }

    var body: some View {
        List(groceries.items, id: \.id) { item in
            Text(item.title)
        }
    }
}
#endif

/// The README's live-results snippets, verbatim between the markers, so that they keep
/// compiling and printing what the README says.
@MainActor
@Suite(.timeLimit(.minutes(10))) struct ReadmeLiveResultsTests {
    let directory: TemporaryDirectory
    let store: Store

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: """
                CREATE TABLE item(id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL);
                INSERT INTO item(title, done) VALUES ('Bread', 0);
                """)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func observableSnippetRuns() async throws {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        // --- README snippet
        let groceries = Groceries(store: store)  // SwiftUI: @State private var groceries = …
        try await groceries.items.waitUntilCurrent()  // the first values (read at the first use)
        print(groceries.items.count, groceries.items[0].title)  // 1 Bread
        try await store.write { db in try db.execute(sql: "INSERT INTO item(title, done) VALUES ('Milk', 0)") }
        try await groceries.items.waitUntilCurrent()  // read your writes: no polling
        print(groceries.items.count, groceries.items.lastChange ?? .empty)  // 2 ChangeSet(inserts: [0.1])
        // --- end

        #expect(printed == ["1 Bread", "2 ChangeSet(inserts: [0.1])"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func sequenceSnippetRuns() async throws {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        Task { try await store.write { db in try db.execute(sql: "INSERT INTO item(title, done) VALUES ('Milk', 0)") } }

        // --- README snippet
        let controller = FetchedResultsController(
            store: store,
            request: StoreRequest<Item>()
                .filter(Column("done") == false)
                .order(Column("title").ascending))
        try controller.performFetch()
        for try await change in controller.changes(initial: true) {  // on the caller's actor, any actor
            print(change.changeSet)  // ChangeSet(sectionInserts: [0]), then ChangeSet(inserts: [0.1])
            let first = try controller.object(at: IndexPath(row: 0, section: 0))
            print(first.title, controller.numberOfObjects)
            if controller.numberOfObjects > 1 { break }
        }
        // --- end

        #expect(printed == ["ChangeSet(sectionInserts: [0])", "Bread 1", "ChangeSet(inserts: [0.1])", "Bread 2"])
    }
}
