import Foundation
import SQLiteStoreCore
import SQLiteStoreResults
import Testing

/// The snippet of the article on live values (SQLiteStoreResults.docc/LiveValuesOnAnyActor.md)
/// and of `LiveValues`' documentation, verbatim: edit them together.
@Suite(.timeLimit(.minutes(10))) struct LiveValuesArticleTests {
    struct Item: StoreModel, Equatable {
        static let tableName = "item"
        var id: Int64?
        var title: String
    }

    actor Exporter {
        var titles: [String] = []
        func follow(_ store: Store) async throws {
            let request = StoreRequest<Item>().order(Column("title").ascending)
            for try await change in LiveValues(request, in: store) {
                titles = change.values.map(\.title)
            }
        }
    }

    @Test func anActorFollowsTheTitles() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(
            schema: """
                CREATE TABLE item(id INTEGER PRIMARY KEY, title TEXT NOT NULL);
                INSERT INTO item(title) VALUES ('milk'), ('bread');
                """)
        let exporter = Exporter()
        let following = Task { try await exporter.follow(store) }
        defer { following.cancel() }
        try await Self.wait { await exporter.titles == ["bread", "milk"] }
        try await store.write { db in try db.execute(sql: "UPDATE item SET title = 'apples' WHERE title = 'milk'") }
        try await Self.wait { await exporter.titles == ["apples", "bread"] }
    }

    /// Returns once `condition` holds; the suite's time limit fails a test that waits forever.
    private static func wait(until condition: () async -> Bool) async throws {
        while await !condition() { try await Task.sleep(for: .milliseconds(5)) }
    }
}
