import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// An actor of its own, to consume changes away from the main actor.
@globalActor actor ChangesTestActor {
    static let shared = ChangesTestActor()
}

/// `changes()`: the initial element, coalescing, delivery on another actor, the end on
/// release and the failure when the table goes away; `waitUntilCurrent` and `subscribe`.
@MainActor @Suite(.timeLimit(.minutes(10))) struct ChangesSequenceTests {
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
    private let sectioned = StoreRequest<Note>().order(Column("grp").ascending, Column("score").ascending).sectioned(by: Column("grp"))

    private func write(_ sql: String) async throws {
        try await store.write { db in try db.execute(sql: sql) }
    }

    /// Writes without suspending: the main actor stays busy until the commit is published.
    private func writeBlocking(_ sql: String) throws {
        try store.write { db in try db.execute(sql: sql) }
    }

    @Test(arguments: [false, true])
    func initialElementHoldsTheCurrentResults(fetchFirst: Bool) async throws {
        for request in [byScore, sectioned] {
            let controller = FetchedResultsController(store: store, request: request)
            if fetchFirst { try controller.performFetch() }
            var changes = controller.changes(initial: true).makeAsyncIterator()
            if !fetchFirst { try controller.performFetch() }
            let initial = try #require(try await changes.next())
            #expect(initial.isInitial)
            #expect(
                try initial.changeSet.applied(to: SectionedSnapshot(), new: initial.results.sectionedSnapshot())
                    == store.freshSnapshot(request))
            try await write("INSERT INTO note(title, grp, score) VALUES ('d', 'z', 0)")
            let next = try #require(try await changes.next())
            #expect(!next.isInitial && next.changeSet.inserts.count + next.changeSet.sectionInserts.count == 1)
        }
    }

    @Test(arguments: [false, true])
    func aSequenceStartsAControllerThatHasNotFetched(initial: Bool) async throws {
        let controller = FetchedResultsController(store: store, request: sectioned)
        let changes = controller.changes(initial: initial)
        let consumer = Task { @ChangesTestActor in
            var iterator = changes.makeAsyncIterator()
            return try await iterator.next()
        }
        if !initial {
            // The first element is the first change after the fetch the sequence made.
            while !controller.isFetched { try await Task.sleep(for: .milliseconds(1)) }
            try await write("DELETE FROM note WHERE id = 2")
        }
        // Cancelled with the test (its time limit), so that a sequence that never starts fails it.
        let first = try #require(
            try await withTaskCancellationHandler {
                try await consumer.value
            } onCancel: {
                consumer.cancel()
            })
        #expect(controller.isFetched)
        #expect(first.isInitial == initial)
        #expect(first.results.sectionedSnapshot() == (try store.freshSnapshot(sectioned)))
    }

    @Test func aSequenceThatCannotStartThrowsTheFetchsError() async throws {
        let unsorted = StoreRequest<Note>().order(Column("score").ascending).sectioned(by: Column("grp"))
        let controller = FetchedResultsController(store: store, request: unsorted)
        var changes = controller.changes(initial: true).makeAsyncIterator()
        await #expect(throws: FetchedResultsError.sectionKeyNotFirstSortKey(sectionKey: "grp", firstSortKey: "score")) {
            try await changes.next()
        }
    }

    @Test func withoutInitialTheFirstElementIsTheNextChange() async throws {
        let controller = FetchedResultsController(store: store, request: byScore)
        try controller.performFetch()
        var changes = controller.changes().makeAsyncIterator()
        try await write("DELETE FROM note WHERE id = 2")
        let change = try #require(try await changes.next())
        #expect(change.changeSet == ChangeSet(deletes: [IndexPath(row: 0, section: 0)]) && !change.isInitial)
    }

    @Test func aBusyConsumerGetsTheTransactionsMergedInOneElement() async throws {
        let controller = FetchedResultsController(store: store, request: byScore)
        try controller.performFetch()
        let changes = controller.changes()
        let before = controller.results.sectionedSnapshot()
        for score in 10..<60 { try await write("UPDATE note SET score = \(score) WHERE id = \(score % 3 + 1)") }
        try await write("INSERT INTO note(title, score) VALUES ('e', 0)")
        try await controller.waitUntilCurrent()
        var iterator = changes.makeAsyncIterator()
        let merged = try #require(try await iterator.next())
        #expect(try merged.changeSet.applied(to: before, new: merged.results.sectionedSnapshot()) == store.freshSnapshot(byScore))
        #expect(merged.results.numberOfObjects == 4)
        // Nothing else is pending: the next element is the next transaction.
        try await write("DELETE FROM note WHERE title = 'e'")
        #expect(try await iterator.next()?.changeSet == ChangeSet(deletes: [IndexPath(row: 0, section: 0)]))
    }

    @Test func onAnotherActorNothingIsLostOrReordered() async throws {
        let controller = FetchedResultsController(store: store, request: sectioned)
        try controller.performFetch()
        let changes = controller.changes(initial: true)
        let consumer = Task { @ChangesTestActor in
            var shown = SectionedSnapshot<ObjectID>()
            var elements = 0
            for try await change in changes {
                ChangesTestActor.shared.preconditionIsolated()
                shown = try change.changeSet.applied(to: shown, new: change.results.sectionedSnapshot())
                elements += 1
                if change.results.numberOfObjects == 0 { break }
                try await Task.sleep(for: .milliseconds(2))
            }
            return (shown, elements)
        }
        var random = SeededGenerator(seed: 17)
        for step in 0..<200 {
            let id = Int.random(in: 1...12, using: &random)
            let group = ["x", "y", "z"].randomElement(using: &random) ?? "x"
            try await write(
                step % 3 == 0
                    ? "INSERT OR REPLACE INTO note(id, title, grp, score) VALUES (\(id), 't', '\(group)', \(step % 7))"
                    : "UPDATE note SET grp = '\(group)', score = \(step % 5) WHERE id = \(id)")
        }
        try await write("DELETE FROM note")
        let (shown, elements) = try await consumer.value
        #expect(shown == (try store.freshSnapshot(sectioned)))
        #expect(elements <= 202, "at most the initial element and one per transaction")
    }

    @Test func theSequenceEndsWhenTheControllerIsReleased() async throws {
        var controller: FetchedResultsController<Note>? = FetchedResultsController(store: store, request: byScore)
        try controller?.performFetch()
        var changes = try #require(controller?.changes()).makeAsyncIterator()
        let consumer = Task { try await changes.next() }
        try await Task.sleep(for: .milliseconds(20))
        controller = nil
        #expect(try await consumer.value == nil)
    }

    @Test func theSequenceThrowsWhenTheTableIsDroppedAfterThePrecedingChanges() async throws {
        let controller = FetchedResultsController(store: store, request: byScore)
        try controller.performFetch()
        var failures: [FetchedResultsError] = []
        controller.didFail = { failures.append($0) }
        var changes = controller.changes().makeAsyncIterator()
        try await write("DELETE FROM note WHERE id = 1")
        try await controller.waitUntilCurrent()
        // The sequence has not taken the delete yet when the table goes.
        try await write("DROP TABLE note")
        await controller.waitForChanges()
        #expect(try await changes.next()?.changeSet == ChangeSet(deletes: [IndexPath(row: 2, section: 0)]))
        let thrown = await Self.failure { () async throws(FetchedResultsError) in _ = try await changes.next() }
        #expect(thrown.map { "\($0)".contains("no such table") } == true, "the sequence throws why")
        #expect(try await changes.next() == nil, "the sequence ended with its failure")
        #expect(controller.failure == thrown && failures == [thrown].compactMap { $0 })
        #expect(await Self.failure { () async throws(FetchedResultsError) in try await controller.waitUntilCurrent() } == thrown)
        // Fetching again, once the table is back, follows the store again.
        try await store.write { db in try db.execute(script: Note.schema + "INSERT INTO note(title) VALUES ('new')") }
        try controller.performFetch()
        #expect(controller.failure == nil && controller.numberOfObjects == 1)
        var fresh = controller.changes().makeAsyncIterator()
        try await write("INSERT INTO note(title) VALUES ('newer')")
        #expect(try await fresh.next()?.results.numberOfObjects == 2)
    }

    @Test func waitUntilCurrentShowsTheWriteThatReturned() async throws {
        let controller = FetchedResultsController(store: store, request: byScore)
        try controller.performFetch()
        var changes = controller.changes().makeAsyncIterator()
        for score in 0..<20 {
            try await write("INSERT INTO note(title, score) VALUES ('n', \(score + 100))")
            try await controller.waitUntilCurrent()
            #expect(controller.numberOfObjects == 4 + score)
        }
        // The sync form, after a sync write.
        try writeBlocking("DELETE FROM note WHERE score >= 110")
        try controller.catchUp()
        #expect(controller.numberOfObjects == 13)
        // The sequence holds every transaction, merged, up to the last delivery.
        let merged = try #require(try await changes.next())
        #expect(merged.results.numberOfObjects == 13 && merged.changeSet.inserts.count == 10)
    }

    @Test func severalSubscribersAndDidChangeAllGetEachChange() async throws {
        let controller = FetchedResultsController(store: store, request: byScore)
        try controller.performFetch()
        var seen: [String] = []
        controller.didChange = { _ in seen.append("didChange") }
        let first = controller.subscribe { _ in seen.append("first") }
        var second: FetchedResultsSubscription? = controller.subscribe { _ in seen.append("second") }
        try await write("UPDATE note SET title = 'A' WHERE id = 1")
        try await controller.waitUntilCurrent()
        #expect(seen == ["didChange", "first", "second"])
        second = nil
        first.cancel()
        try await write("UPDATE note SET title = 'B' WHERE id = 1")
        try await controller.waitUntilCurrent()
        #expect(seen == ["didChange", "first", "second", "didChange"])
        _ = second
    }

    @Test func onTheMainActorTheControllerShowsTheElementsResults() async throws {
        let controller = FetchedResultsController(store: store, request: byScore)
        try controller.performFetch()
        var changes = controller.changes().makeAsyncIterator()
        // The main actor stays busy until `next()`: the controller's own delivery cannot come first.
        try writeBlocking("UPDATE note SET score = 0 WHERE id = 1")
        let change = try #require(try await changes.next())
        #expect(controller.results.sectionedSnapshot() == change.results.sectionedSnapshot())
        #expect(try controller.object(at: IndexPath(row: 0, section: 0)).title == "a")
    }

    /// What `body` throws, `nil` if it returns.
    private static func failure(_ body: () async throws(FetchedResultsError) -> Void) async -> FetchedResultsError? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }
}
