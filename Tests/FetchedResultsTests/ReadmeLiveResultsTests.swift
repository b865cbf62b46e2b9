import SQLiteStoreResults
import Foundation
import SQLiteStoreCore
import Testing

/// The README's live-results snippet, so that it keeps compiling and working.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct ReadmeLiveResultsTests {
    struct Item: StoreModel, Equatable {
        static let tableName = "item"
        var id: Int64?
        var title: String
        var done: Bool
    }

    @Test func liveResultsSnippetRuns() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(schema: """
            CREATE TABLE item(id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL);
            INSERT INTO item(title, done) VALUES ('Bread', 0);
            """)
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        Task { try await store.write { db in try db.execute(sql: "INSERT INTO item(title, done) VALUES ('Milk', 0)") } }

        let controller = FetchedResultsController(store: store, request: StoreRequest<Item>()
            .filter(Column("done") == false)
            .order(Column("title").ascending))
        try controller.performFetch()                   // on the main actor
        for try await change in controller.changes() {
            print(change.changeSet)                     // e.g. ChangeSet(inserts: [0.1]), in batch-update coordinates
            let first = try controller.object(at: IndexPath(row: 0, section: 0))
            print(first.title, controller.numberOfObjects)
            break
        }

        #expect(printed == ["ChangeSet(inserts: [0.1])", "Bread 2"])
    }
}
