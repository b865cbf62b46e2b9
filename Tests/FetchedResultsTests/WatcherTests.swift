import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// ChangeWatcher against a real store file.
@Suite(.timeLimit(.minutes(10))) struct WatcherTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: Note.schema + """
                INSERT INTO note(title, grp, score) VALUES ('a', 'x', 1), ('b', 'x', 2), ('c', 'y', 3);
                """)
    }

    @Test func changeWatcherReportsNewValuesAndDeletionsOfWatchedObjectsOnly() async throws {
        let watcher = ChangeWatcher<Note>(store: store, watching: [Note.id(1), Note.id(2)])
        var events = watcher.events().makeAsyncIterator()
        try await store.write { db in try db.execute(sql: "UPDATE note SET title = 'C' WHERE id = 3") }
        try await store.write { db in
            try db.execute(sql: "UPDATE note SET title = 'A' WHERE id = 1")
            try db.execute(sql: "DELETE FROM note WHERE id = 2")
        }
        let event = try #require(await events.next(), "the untouched transaction produced no event")
        #expect(event.updated == [Note.id(1): Note(id: 1, title: "A", grp: "x", score: 1)])
        #expect(event.deleted == [Note.id(2)])
        #expect(watcher.watchedIDs == [Note.id(1)], "a deleted object is no longer watched")
    }

    @Test func watchedSetGrowsAndShrinksAtRuntime() async throws {
        let watcher = ChangeWatcher<Note>(store: store)
        var events = watcher.events().makeAsyncIterator()
        #expect(watcher.watch([Note.id(3), ObjectID(table: "other", rowID: 1)]) == [ObjectID(table: "other", rowID: 1)])
        watcher.watch([Note.id(1)])
        watcher.unwatch([Note.id(3)])
        #expect(watcher.watchedIDs == [Note.id(1)])
        try await store.write { db in try db.execute(sql: "UPDATE note SET score = score + 10") }
        let event = try #require(await events.next())
        #expect(Set(event.updated.keys) == [Note.id(1)])
        #expect(event.updated[Note.id(1)]?.score == 11)
    }

    @Test func rolledBackTransactionReportsNothing() async throws {
        let watcher = ChangeWatcher<Note>(store: store, watching: [Note.id(1)])
        var events = watcher.events().makeAsyncIterator()
        struct Abort: Error {}
        await #expect(throws: Abort.self) {
            try await store.write { db in
                try db.execute(sql: "UPDATE note SET title = 'rolled back' WHERE id = 1")
                throw Abort()
            }
        }
        try await store.write { db in try db.execute(sql: "UPDATE note SET score = 7 WHERE id = 1") }
        let event = try #require(await events.next())
        #expect(event.updated[Note.id(1)] == Note(id: 1, title: "a", grp: "x", score: 7))
    }

    @MainActor @Test func handlerRunsOnTheMainActorInCommitOrder() async throws {
        let (stream, continuation) = AsyncStream<[Int?]>.makeStream()
        let watcher = ChangeWatcher<Note>(
            store: store, watching: [Note.id(1)],
            handler: .mainActor { event in
                MainActor.assertIsolated()
                continuation.yield(event.updated.values.map(\.score))
            })
        for score in 1...3 {
            try await store.write { db in try db.execute(sql: "UPDATE note SET score = ? WHERE id = 1", arguments: [score * 100]) }
        }
        var scores: [[Int?]] = []
        for await update in stream {
            scores.append(update)
            if scores.count == 3 { break }
        }
        #expect(scores == [[100], [200], [300]])
        _ = watcher
    }

    @Test func deletionsAreReportedWithoutReadingTheStore() async throws {
        let watcher = ChangeWatcher<Note>(store: store, watching: [Note.id(1), Note.id(3)])
        var events = watcher.events().makeAsyncIterator()
        try await store.write { db in try db.execute(sql: "DELETE FROM note WHERE id IN (2, 3)") }
        let event = try #require(await events.next())
        #expect(event.deleted == [Note.id(3)])
        #expect(event.updated.isEmpty && event.error == nil)
        #expect(watcher.watchedIDs == [Note.id(1)])
    }

    @Test func deleteByAnotherConnectionIsFoundAfterExternalChangeCheck() async throws {
        let watcher = ChangeWatcher<Note>(store: store, watching: [Note.id(1), Note.id(2)])
        var changes = watcher.events().makeAsyncIterator()
        let other = try Store(path: directory.path("test.sqlite"))
        try await other.write { db in
            try db.execute(sql: "DELETE FROM note WHERE id = 2")
            try db.execute(sql: "UPDATE note SET title = 'from elsewhere' WHERE id = 1")
        }
        try store.checkForExternalChanges()
        let change = try #require(await changes.next())
        #expect(change.deleted == [Note.id(2)])
        #expect(change.updated[Note.id(1)]?.title == "from elsewhere")
        #expect(watcher.watchedIDs == [Note.id(1)])
    }
}
