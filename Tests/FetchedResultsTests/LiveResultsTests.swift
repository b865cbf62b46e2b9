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
        notes = LiveResults(StoreRequest<Note>().filter(Column("score") < 100).order(Column("score").ascending), in: store)
    }
}

/// An actor holding live results, the way a background exporter holds them. It runs on a
/// queue of its own, so that a test can tell whether code runs on it.
actor NotesExporter {
    let store: Store
    lazy var notes = LiveResults(StoreRequest<Note>().order(Column("score").ascending), in: store, isolation: self)
    private let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(store: Store) { self.store = store }

    /// The titles, after every transaction committed before the call.
    func titles() async throws -> [String] {
        try await notes.waitUntilCurrent()
        return notes.map(\.title)
    }

    /// Whether the next change to the results is applied on this actor: observation tells
    /// of a change on the thread that applies it.
    func nextChangeIsAppliedHere(after write: @Sendable () async throws -> Void) async throws -> Bool {
        let appliedHere = Locked<Bool?>(nil)
        withObservationTracking {
            _ = notes.count
        } onChange: { [executor] in
            appliedHere.withLock { $0 = executor.isRunningHere }
        }
        try await write()
        try await notes.waitUntilCurrent()
        return appliedHere.current == true
    }
}

/// A serial executor on a dispatch queue that knows whether the current thread runs it.
final class QueueExecutor: SerialExecutor {
    private let queue = DispatchQueue(label: "LiveResultsTests.QueueExecutor")
    private let key = DispatchSpecificKey<Bool>()

    init() { queue.setSpecific(key: key, value: true) }

    var isRunningHere: Bool { DispatchQueue.getSpecific(key: key) == true }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
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

/// `LiveResults`: a random-access collection of models, one notification per delivered change
/// and only to the observers of what changed (checked with `withObservationTracking`), held and
/// read on the main actor and on any other actor alike.
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
        try await model.notes.waitUntilCurrent()
        for _ in 0..<5 { await Task.yield() }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func theResultsAreACollectionOfModels() async throws {
        let model = NotesViewModel(store: store)
        #expect(model.notes.isEmpty && model.notes.isLoading, "nothing before the first values")
        try await model.notes.waitUntilCurrent()
        #expect(!model.notes.isLoading && model.notes.count == 5)
        #expect(model.notes.map(\.title) == ["a", "b", "c", "d", "e"])
        #expect(model.notes[2].title == "c" && model.notes.last?.title == "e")
        #expect(model.notes.object(at: IndexPath(row: 1, section: 0))?.title == "b")
        #expect(model.notes.object(at: IndexPath(row: 5, section: 0)) == nil)
        let second = try #require(model.notes.objectID(at: 1))
        #expect(model.notes[second]?.title == "b" && model.notes.objectID(at: 5) == nil)
        #expect(model.notes.values.map(\.title) == model.notes.map(\.title))
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func anObserverOfTheViewModelSeesOneChangePerTransaction() async throws {
        let model = NotesViewModel(store: store)
        try await model.notes.waitUntilCurrent()
        let everything = ObservationCounter {
            _ = model.notes.count
            _ = model.notes.sections
            _ = model.notes.lastChange
            for note in model.notes { _ = note }
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
        #expect(model.notes.map(\.title) == ["A", "C", "b"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func readingOneObjectDependsOnThatObjectAlone() async throws {
        let model = NotesViewModel(store: store)
        try await model.notes.waitUntilCurrent()
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
    @Test func anObjectReadBeforeTheFirstValuesIsNotifiedWhenTheyCome() async throws {
        let model = NotesViewModel(store: store)
        let id = ObjectID(table: "note", rowID: 3)
        let byIdentity = ObservationCounter { _ = model.notes[id] }
        #expect(model.notes[id] == nil)
        try await model.notes.waitUntilCurrent()
        for _ in 0..<5 { await Task.yield() }
        #expect(byIdentity.count == 1 && model.notes[id]?.title == "c")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func nothingIsReadBeforeTheFirstRead() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(schema: "CREATE TABLE other(x);")
        let notes = LiveResults(StoreRequest<Note>().order(Column("score").ascending), in: store)
        try await store.write { db in try db.execute(script: Note.schema + "INSERT INTO note(title, score) VALUES ('a', 1);") }
        try await notes.waitUntilCurrent()
        #expect(notes.failure == nil && notes.map(\.title) == ["a"], "the table made after the results is read")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func anActorHoldsAndReadsTheResults() async throws {
        let exporter = NotesExporter(store: store)
        #expect(try await exporter.titles() == ["a", "b", "c", "d", "e"])
        try await write("UPDATE note SET title = 'B' WHERE id = 2; DELETE FROM note WHERE id = 5")
        #expect(try await exporter.titles() == ["a", "B", "c", "d"], "the write that returned is shown")
        try await write("INSERT INTO note(title, score) VALUES ('z', 0)")
        #expect(try await exporter.titles() == ["z", "a", "B", "c", "d"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func changesArriveOnTheActorThatMadeTheResults() async throws {
        let exporter = NotesExporter(store: store)
        _ = try await exporter.titles()
        let store = store
        let appliedHere = try await exporter.nextChangeIsAppliedHere {
            try await store.write { db in try db.execute(sql: "INSERT INTO note(title, score) VALUES ('y', 0)") }
        }
        #expect(appliedHere)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aFailureIsObservable() async throws {
        let model = NotesViewModel(store: store)
        try await model.notes.waitUntilCurrent()
        let failure = ObservationCounter { _ = model.notes.failure }
        #expect(model.notes.failure == nil)
        try await write("DROP TABLE note")
        await #expect(throws: FetchedResultsError.self) { try await model.notes.waitUntilCurrent() }
        for _ in 0..<5 { await Task.yield() }
        #expect(failure.count == 1 && model.notes.failure != nil)
        #expect(model.notes.count == 5, "the results stay as last delivered")
    }
}
