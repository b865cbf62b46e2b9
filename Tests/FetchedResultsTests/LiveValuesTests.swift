import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// `LiveValues`: the first values, a change's values and change set, a row's values kept
/// when another changes, the end on cancellation and the failure when the table goes away,
/// all consumed away from the main actor.
@ChangesTestActor @Suite(.timeLimit(.minutes(10))) struct LiveValuesTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: Note.schema + """
                INSERT INTO note(title, grp, score) VALUES ('a', 'x', 3), ('b', 'y', 1), ('c', 'x', 2);
                """)
    }

    private let byScore = StoreRequest<Note>().order(Column("score").ascending)

    private func write(_ sql: String) async throws {
        try await store.write { db in try db.execute(sql: sql) }
    }

    @Test func theFirstElementHoldsEveryValueAndInsertsEverySection() async throws {
        let sectioned = StoreRequest<Note>().order(Column("grp").ascending, Column("score").ascending).sectioned(by: Column("grp"))
        var values = LiveValues(sectioned, in: store).makeAsyncIterator()
        let first = try #require(try await values.next())
        #expect(first.isInitial)
        #expect(first.changeSet == ChangeSet(sectionInserts: [0, 1]))
        #expect(first.values.map(\.title) == ["c", "a", "b"])
        #expect(first.values.sections.map(\.name) == ["x", "y"])
        #expect(first.values.object(at: IndexPath(row: 0, section: 1))?.title == "b")
        #expect(first.values[Note.id(1)]?.title == "a" && first.values[Note.id(9)] == nil)
    }

    @Test func aChangeCarriesItsChangeSetAndTheNewValues() async throws {
        var values = LiveValues(byScore, in: store).makeAsyncIterator()
        let first = try #require(try await values.next())
        try await write("UPDATE note SET title = 'B' WHERE id = 2")
        let update = try #require(try await values.next())
        #expect(update.changeSet == ChangeSet(updates: [IndexPath(row: 0, section: 0)]))
        #expect(update.values.map(\.title) == ["B", "c", "a"])
        #expect(first.values.map(\.title) == ["b", "c", "a"], "an element keeps its values")
        try await store.write { db in
            try db.execute(script: "UPDATE note SET score = 9 WHERE id = 2; INSERT INTO note(title, score) VALUES ('d', 0)")
        }
        let move = try #require(try await values.next())
        #expect(move.values.map(\.title) == ["d", "c", "a", "B"])
        #expect(
            try move.changeSet.applied(to: update.values.results.sectionedSnapshot(), new: move.values.results.sectionedSnapshot())
                == store.freshSnapshot(byScore))
    }

    @Test func aBatchSizeIsIgnoredAndARequestWithALimitFollowsToo() async throws {
        let limited = StoreRequest<Note>().order(Column("title").descending).limit(2).batchSize(1)
        var values = LiveValues(limited, in: store).makeAsyncIterator()
        #expect(try await values.next()?.values.map(\.title) == ["c", "b"])
        try await write("INSERT INTO note(title) VALUES ('z')")
        #expect(try await values.next()?.values.map(\.title) == ["z", "c"])
    }

    @Test func theSequenceEndsWhenItsTaskIsCancelled() async throws {
        let consumer = Task { @ChangesTestActor [store, byScore] in
            var count = 0
            for try await _ in LiveValues(byScore, in: store) { count += 1 }
            return count
        }
        try await Task.sleep(for: .milliseconds(50))
        consumer.cancel()
        #expect(try await consumer.value == 1)
    }

    @Test func theSequenceThrowsWhenTheTableIsDroppedThenEnds() async throws {
        var values = LiveValues(byScore, in: store).makeAsyncIterator()
        _ = try await values.next()
        try await write("DROP TABLE note")
        await #expect(throws: FetchedResultsError.self) { _ = try await values.next() }
        #expect(try await values.next() == nil)
    }

    @Test func anInvalidRequestThrowsAtTheFirstElement() async throws {
        let invalid = StoreRequest<Note>().order(Column("score").ascending).sectioned(by: Column("grp"))
        var values = LiveValues(invalid, in: store).makeAsyncIterator()
        await #expect(throws: FetchedResultsError.sectionKeyNotFirstSortKey(sectionKey: "grp", firstSortKey: "score")) {
            _ = try await values.next()
        }
    }
}
