import Foundation
import Observation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// A view model holding live results, the way an app holds them.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor @Observable final class NotesViewModel {
    let notes: LiveResults<Note>
    var title = "Notes"

    init(store: Store) {
        notes = LiveResults(StoreRequest<Note>().filter(Column("score") < 100).order(Column("score").ascending).batchSize(2), in: store)
    }
}

/// Counts how often what `read` reads changes, re-arming after each change as SwiftUI does
/// (after the change, not inside it).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor final class ObservationCounter {
    private(set) var count = 0
    private let read: @MainActor () -> Void

    init(_ read: @escaping @MainActor () -> Void) {
        self.read = read
        arm()
    }

    private func arm() {
        withObservationTracking {
            read()
        } onChange: { [weak self] in
            Task { @MainActor in
                self?.count += 1
                self?.arm()
            }
        }
    }
}

/// `LiveResults`: one notification per delivered change, and only to the
/// observers of what changed, checked with `withObservationTracking`.
@MainActor @Suite(.timeLimit(.minutes(10))) struct LiveResultsTests {
    let directory: TemporaryDirectory
    let store: Store

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: Note.schema + """
                CREATE TABLE other(x);
                INSERT INTO note(title, score) VALUES ('a', 1), ('b', 2), ('c', 3), ('d', 4), ('e', 5);
                """)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func write(_ sql: String) async throws {
        try await store.write { db in try db.execute(script: sql) }
    }

    /// Writes `sql`, waits for its delivery and for the observers' tasks.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func commit(_ sql: String, _ model: NotesViewModel) async throws {
        try await write(sql)
        try await model.notes.controller.waitUntilCurrent()
        for _ in 0..<5 { await Task.yield() }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func anObserverOfTheViewModelSeesOneChangePerTransaction() async throws {
        let model = NotesViewModel(store: store)
        #expect(model.notes.count == 5 && model.notes[0]?.title == "a")
        let everything = ObservationCounter {
            _ = model.notes.count
            _ = model.notes.sections
            _ = model.notes.lastChange
            for position in 0..<model.notes.count { _ = model.notes[position] }
        }
        try await commit("UPDATE note SET title = 'A' WHERE id = 1", model)
        try await commit("INSERT INTO note(title, score) VALUES ('f', 0)", model)
        try await commit("UPDATE note SET score = 10 WHERE id = 2; UPDATE note SET title = 'C' WHERE id = 3", model)
        try await commit("DELETE FROM note WHERE id IN (4, 5)", model)
        #expect(everything.count == 4)
        // Transactions the request does not see notify nobody.
        try await commit("INSERT INTO other VALUES (1)", model)
        try await commit("UPDATE note SET score = 200 WHERE id = 6; UPDATE note SET score = 300 WHERE id = 6", model)
        #expect(everything.count == 5, "the row leaving the results is one change")
        try await commit("UPDATE note SET title = 'x' WHERE id = 6", model)
        #expect(everything.count == 5)
        #expect(model.notes.lastChange == ChangeSet(deletes: [IndexPath(row: 0, section: 0)]))
        #expect((0..<model.notes.count).compactMap { model.notes[$0]?.title } == ["A", "C", "b"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func readingOneObjectDependsOnThatObjectAlone() async throws {
        let model = NotesViewModel(store: store)
        let second = try #require(model.notes.objectID(at: 1))
        let byIdentity = ObservationCounter { _ = model.notes[second] }
        let byPosition = ObservationCounter { _ = model.notes[1] }
        let shape = ObservationCounter { _ = model.notes.count }
        try await commit("UPDATE note SET title = 'A' WHERE id = 1", model)
        #expect((byIdentity.count, byPosition.count, shape.count) == (0, 0, 0), "another row changed in place")
        try await commit("UPDATE note SET title = 'B' WHERE id = 2", model)
        #expect((byIdentity.count, byPosition.count, shape.count) == (1, 1, 0), "the row read changed in place")
        try await commit("INSERT INTO note(title, score) VALUES ('z', 9)", model)
        #expect((byIdentity.count, byPosition.count, shape.count) == (1, 2, 1), "a row came: positions may shift")
        try await commit("DELETE FROM note WHERE id = 2", model)
        #expect((byIdentity.count, byPosition.count, shape.count) == (2, 3, 2), "the row read went")
        #expect(model.notes[second] == nil)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func objectsAreReadABatchAtATime() async throws {
        let model = NotesViewModel(store: store)
        #expect(model.notes[2]?.title == "c")
        let afterFirst = model.notes.controller.rowsRead
        #expect(model.notes[3]?.title == "d" && model.notes.controller.rowsRead == afterFirst, "the batch of 2 holds both")
        #expect(model.notes[4]?.title == "e" && model.notes.controller.rowsRead == afterFirst + 1)
        #expect(model.notes[5] == nil)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func nothingIsFetchedBeforeTheFirstRead() async throws {
        let model = NotesViewModel(store: store)
        #expect(!model.notes.controller.isFetched)
        _ = model.notes.isEmpty
        #expect(model.notes.controller.isFetched)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aFailureIsObservable() async throws {
        let model = NotesViewModel(store: store)
        let failure = ObservationCounter { _ = model.notes.failure }
        #expect(model.notes.failure == nil)
        try await write("DROP TABLE note")
        try? await model.notes.controller.waitUntilCurrent()
        for _ in 0..<5 { await Task.yield() }
        #expect(failure.count == 1 && model.notes.failure != nil)
        #expect(model.notes.count == 5, "the results stay as last delivered")
    }
}
