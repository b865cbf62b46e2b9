import Foundation
import SQLiteStoreCore
import Testing

/// The snippets of the change-notification article (SQLiteStoreCore.docc) that the README
/// tests do not run, verbatim: edit both together.
@Suite(.timeLimit(.minutes(1))) struct ChangeNotificationsArticleTests {
    @Test func observationHandlerGetsTheInsertedRowsUntilCancelled() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(schema: "CREATE TABLE item(id INTEGER PRIMARY KEY, title TEXT NOT NULL);")
        let (printed, printedLine) = AsyncStream<String>.makeStream()
        @Sendable func print(_ items: Any...) { printedLine.yield(items.map { "\($0)" }.joined(separator: " ")) }
        var lines = printed.makeAsyncIterator()

        let observation = store.observeChanges(in: ["item"]) { changes in
            print(changes.changes(in: "item").inserted)
        }
        try await store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('a')") }
        #expect(await lines.next() == "[1]")

        observation.cancel()
        let afterCancel = store.changes(in: ["item"])
        try await store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('b')") }
        for await _ in afterCancel { break }  // the second commit has been published to subscribers
        printedLine.finish()
        #expect(await lines.next() == nil, "a cancelled observation gets nothing more")
    }
}
