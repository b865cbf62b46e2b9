import Foundation
import SQLiteStoreCore
import SQLiteStoreResults
import Testing

/// The snippets of the article for Core Data users (SQLiteStoreResults.docc) and of
/// `FetchedResultsController`'s documentation, verbatim: edit both together. The article's
/// `for await` snippet is the README's, run by `ReadmeLiveResultsTests`.
@MainActor
@Suite(.timeLimit(.minutes(10))) struct CoreDataArticleTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    struct Item: StoreModel, Equatable {
        static let tableName = "item"
        var id: Int64?
        var title: String
        var category: String
    }

    let directory: TemporaryDirectory
    let store: Store

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: """
                CREATE TABLE item(id INTEGER PRIMARY KEY, title TEXT NOT NULL, category TEXT NOT NULL);
                INSERT INTO item(title, category) VALUES ('Milk', 'groceries'), ('Bread', 'groceries'), ('Report', 'work');
                """)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func fetchSnippetShowsSectionsAndTheFirstObject() throws {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        let controller = FetchedResultsController(
            store: store,
            request: StoreRequest<Item>()
                .order(Column("category").ascending, Column("title").ascending)
                .sectioned(by: Column("category"))
                .batchSize(50))
        try controller.performFetch()
        for section in controller.sections {
            print(section.name ?? "", section.numberOfObjects)
        }
        let first = try controller.object(at: IndexPath(row: 0, section: 0))

        #expect(printed == ["groceries 2", "work 1"])
        #expect(first.title == "Bread")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func didChangeSnippetsGetEveryChangeSetAndItsResults() async throws {
        let (printed, printedLine) = AsyncStream<String>.makeStream()
        func print(_ items: Any...) { printedLine.yield(items.map { "\($0)" }.joined(separator: " ")) }
        var lines = printed.makeAsyncIterator()
        let controller = FetchedResultsController(store: store, request: StoreRequest<Item>().order(Column("title").ascending))
        try controller.performFetch()

        controller.didChange = { change in
            print(change.changeSet, change.results.numberOfObjects)  // apply it in performBatchUpdates
        }
        try await store.write { db in try db.execute(sql: "INSERT INTO item(title, category) VALUES ('Apples', 'groceries')") }
        #expect(await lines.next() == "ChangeSet(inserts: [0.0]) 4")

        var shown = controller.results.sectionedSnapshot()
        controller.didChange = { change in
            let new = change.results.sectionedSnapshot()
            let replayed = try? change.changeSet.applied(to: shown, new: new)
            print(replayed == new)  // true
            shown = new
        }
        try await store.write { db in try db.execute(sql: "UPDATE item SET title = 'Zucchini' WHERE title = 'Bread'") }
        #expect(await lines.next() == "true")
        try await store.write { db in try db.execute(sql: "DELETE FROM item WHERE title = 'Milk'") }
        #expect(await lines.next() == "true")
        #expect(shown == controller.results.sectionedSnapshot())
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func controllerDocumentationExampleRuns() async throws {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        let controller = FetchedResultsController(
            store: store,
            request: StoreRequest<Item>()
                .order(Column("category").ascending, Column("title").ascending)
                .sectioned(by: Column("category")).batchSize(50))
        controller.didChange = { change in print(change.changeSet) }  // apply it in performBatchUpdates
        try controller.performFetch()
        let first = try controller.object(at: IndexPath(row: 0, section: 0))

        #expect(first.title == "Bread")
        #expect(printed.isEmpty, "the first fetch publishes nothing")
        var changes = controller.changes().makeAsyncIterator()
        try await store.write { db in try db.execute(sql: "INSERT INTO item(title, category) VALUES ('Slides', 'work')") }
        _ = try await changes.next()
        #expect(printed == ["ChangeSet(inserts: [1.1])"])
    }
}
