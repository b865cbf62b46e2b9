import Foundation
import SQLiteStoreCore
import Testing

/// The snippets of the change-notification article (SQLiteStoreCore.docc), verbatim: edit
/// both together. The first is also in the README and in the Getting Started article.
@Suite(.timeLimit(.minutes(10))) struct ChangeNotificationsArticleTests {
    @Test func changesLoopPrintsEachCommitsRows() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(
            schema: "CREATE TABLE item(id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL);")
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        // Writes until the loop below has seen one: it may subscribe after the first commits.
        let writer = Task {
            while !Task.isCancelled {
                try await store.write { db in try db.execute(sql: "INSERT INTO item(title, done) VALUES ('a', 0)") }
                try await Task.sleep(for: .milliseconds(10))
            }
        }

        for await changes in store.changes(in: ["item"]) {
            let items = changes.changes(in: "item")
            print(items.inserted, items.updated, items.deleted, items.isWhollyChanged)
            break
        }

        writer.cancel()
        #expect(printed.count == 1)
        #expect(printed.first?.hasSuffix("] [] [] false") == true)
        #expect(printed.first?.hasPrefix("[") == true && printed.first?.hasPrefix("[]") == false, "one inserted rowid")
    }

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

    @Test func observationIsToldOfTheStoresFailure() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(schema: "CREATE TABLE item(id INTEGER PRIMARY KEY, title TEXT NOT NULL);")
        let (printed, printedLine) = AsyncStream<String>.makeStream()
        @Sendable func print(_ items: Any...) { printedLine.yield(items.map { "\($0)" }.joined(separator: " ")) }
        var lines = printed.makeAsyncIterator()

        let observation = store.observeChanges(
            in: ["item"],
            didFail: { error in
                print("the store stopped: \(error)")
            }
        ) { changes in
            print(changes.changes(in: "item").inserted)
        }
        try await store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('a')") }
        #expect(await lines.next() == "[1]")
        try FileManager.default.removeItem(atPath: directory.path("test.sqlite"))
        #expect(throws: StoreError.self) { try store.checkForExternalChanges() }
        #expect(await lines.next()?.hasPrefix("the store stopped: SQLite error 8 (extended 1032): the database file") == true)
        withExtendedLifetime(observation) {}
    }
}
