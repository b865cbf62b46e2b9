import Foundation
import SQLiteStoreCore
import SQLiteStoreResults
import Testing

/// The snippet of the article on the first screen (SQLiteStoreResults.docc/FirstScreen.md),
/// verbatim: edit both together.
@MainActor
@Suite(.timeLimit(.minutes(10))) struct FirstScreenArticleTests {
    struct Item: StoreModel, Equatable {
        static let tableName = "item"
        var id: Int64?
        var flag: Int
        var score: Int
    }

    @Test func theFirstScreenComesFirstThenTheRest() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(
            schema: """
                CREATE TABLE item(id INTEGER PRIMARY KEY, flag INTEGER NOT NULL, score INTEGER NOT NULL);
                CREATE INDEX item_by_score ON item(score);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
                INSERT INTO item(flag, score) SELECT i % 2, 2000 - i FROM n;
                """)
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        let controller = FetchedResultsController(
            store: store, request: StoreRequest<Item>().filter(Column("flag") == 1).order(Column("score").ascending))
        try controller.performFetch()
        let first = try controller.object(at: IndexPath(row: 0, section: 0))  // the first screen, at once
        controller.didChange = { change in
            print(change.results.isComplete, change.changeSet.inserts.count)  // true, the rows after the first page
        }

        #expect(first.score == 1 && !controller.isComplete)
        try await controller.waitUntilCurrent()
        #expect(printed == ["true \(1_000 - FetchedResultsController<Item>.firstPageSize - 1)"])
    }
}
