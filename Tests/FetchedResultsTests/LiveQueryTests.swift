import Foundation
import Observation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// A main-actor type declaring live values in one line, with the default store.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor final class NoteShelf {
    @LiveQuery(StoreRequest<Note>().order(Column("score").ascending)) var notes
}

/// `@LiveQuery` and the `LiveResults` it declares: the results follow the store, the default store
/// (the task's, the process's, the environment's), a new request, failures, and the end of
/// the following when the results are released.
@MainActor @Suite(.timeLimit(.minutes(10))) struct LiveQueryTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: Note.schema + """
                INSERT INTO note(title, score) VALUES ('a', 3), ('b', 1), ('c', 2);
                """)
    }

    private let byScore = StoreRequest<Note>().order(Column("score").ascending)

    private func write(_ sql: String) async throws {
        try await store.write { db in try db.execute(sql: sql) }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func theValuesFollowTheStore() async throws {
        let live = LiveResults(byScore, in: store)
        #expect(live.values.isEmpty && live.isLoading, "nothing before the first values")
        try await live.wait { !$0.isLoading }
        #expect(live.values.map(\.title) == ["b", "c", "a"])
        #expect(live.lastChange == ChangeSet(sectionInserts: [0]))
        try await write("INSERT INTO note(title, score) VALUES ('d', 0)")
        try await live.wait { $0.values.count == 4 }
        #expect(live.values.map(\.title) == ["d", "b", "c", "a"])
        #expect(live.lastChange == ChangeSet(inserts: [IndexPath(row: 0, section: 0)]))
        #expect(live.failure == nil)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func aChangeNotifiesWhoReadTheValuesOnce() async throws {
        let live = LiveResults(byScore, in: store)
        try await live.wait { !$0.isLoading }
        let notified = Locked(0)
        withObservationTracking {
            _ = live.values
        } onChange: {
            notified.withLock { $0 += 1 }
        }
        try await write("UPDATE note SET title = 'B' WHERE title = 'b'")
        try await live.wait { $0.values.first?.title == "B" }
        #expect(notified.current == 1)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func aDeclarationWithoutAStoreTakesTheTasksDefault() async throws {
        let shelf = await Store.withDefault(store) { NoteShelf() }
        #expect(Store.default !== store, "the default is the task's only inside withDefault")
        try await shelf.notes.wait { !$0.isLoading }
        #expect(shelf.notes.map(\.title) == ["b", "c", "a"])
        try await write("UPDATE note SET title = 'B' WHERE title = 'b'")
        try await shelf.notes.wait { $0.values.first?.title == "B" }
        #expect(shelf.notes.lastChange == ChangeSet(updates: [IndexPath(row: 0, section: 0)]))
    }

    /// The only test that sets the process's default: the others bind the task's, which wins.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func withoutAnyStoreTheValuesFailAndTheProcessDefaultServes() async throws {
        let lost = LiveResults(byScore)
        _ = lost.values
        guard case .store(let error)? = lost.failure else {
            Issue.record("expected a store failure, got \(String(describing: lost.failure))")
            return
        }
        #expect(error.code == .misuse && !lost.isLoading)
        lost.adopt(store)  // a SwiftUI environment's store, known once the view is installed
        try await lost.wait { $0.values.count == 3 }
        #expect(lost.failure == nil)

        Store.default = store
        defer { Store.default = nil }
        let shelf = NoteShelf()
        try await shelf.notes.wait { !$0.isLoading }
        #expect(shelf.notes.count == 3)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func theEnvironmentsStoreReplacesTheDefaultNotAGivenOne() async throws {
        let otherDirectory = try TemporaryDirectory()
        let other = try otherDirectory.makeStore(schema: Note.schema + "INSERT INTO note(title, score) VALUES ('z', 1);")
        let defaulted = LiveResults(byScore)
        defaulted.adopt(other)
        let given = LiveResults(byScore, in: store)
        given.adopt(other)
        try await defaulted.wait { !$0.isLoading }
        try await given.wait { !$0.isLoading }
        #expect(defaulted.values.map(\.title) == ["z"] && defaulted.failure == nil)
        #expect(given.values.map(\.title) == ["b", "c", "a"])
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func aNewRequestIsFollowedInstead() async throws {
        let live = LiveResults(byScore, in: store)
        try await live.wait { !$0.isLoading }
        live.request = StoreRequest<Note>().filter(Column("score") > 1).order(Column("title").descending)
        #expect(live.isLoading && live.values.count == 3, "the old values stay until the new ones come")
        try await live.wait { !$0.isLoading }
        #expect(live.values.map(\.title) == ["c", "a"])
        try await write("INSERT INTO note(title, score) VALUES ('e', 5), ('f', 0)")
        try await live.wait { $0.values.count == 3 }
        #expect(live.values.map(\.title) == ["e", "c", "a"])
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func aDroppedTableIsAFailureAndTheValuesStay() async throws {
        let live = LiveResults(byScore, in: store)
        try await live.wait { !$0.isLoading }
        try await write("DROP TABLE note")
        try await live.wait { $0.failure != nil }
        #expect(live.values.map(\.title) == ["b", "c", "a"])
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func aReleasedObserverStopsFollowing() async throws {
        weak var released: LiveResults<Note>?
        do {
            let live = LiveResults(byScore, in: store)
            try await live.wait { !$0.isLoading }
            released = live
        }
        #expect(released == nil, "the following task does not keep the live")
        try await write("INSERT INTO note(title, score) VALUES ('d', 0)")
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
extension LiveResults {
    /// Returns once `condition` holds; throws when the test's time is up (cancellation).
    @MainActor func wait(_ condition: (LiveResults) -> Bool) async throws {
        while !condition(self) { try await Task.sleep(for: .milliseconds(1)) }
    }
}
