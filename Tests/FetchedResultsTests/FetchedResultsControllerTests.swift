import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// The controller's results, requests, objects and change sets against a real store file.
@MainActor @Suite(.timeLimit(.minutes(10))) struct FetchedResultsControllerTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: Note.schema + """
                INSERT INTO note(title, grp, score) VALUES
                  ('a', 'x', 3), ('b', 'y', 1), ('c', 'x', NULL), ('d', NULL, 2), ('e', 'y', 1);
                """)
    }

    private func sectioned() -> StoreRequest<Note> {
        StoreRequest<Note>().order(Column("grp").ascending, Column("score").descending).sectioned(by: Column("grp"))
    }

    @Test func performFetchGivesSectionsIndexPathsAndObjects() throws {
        let controller = FetchedResultsController(store: store, request: sectioned().batchSize(2))
        try controller.performFetch()
        #expect(
            controller.sections == [
                FetchedSection(name: nil, numberOfObjects: 1), FetchedSection(name: "x", numberOfObjects: 2),
                FetchedSection(name: "y", numberOfObjects: 2),
            ])
        #expect(controller.numberOfObjects == 5)
        #expect(try controller.object(at: IndexPath(row: 1, section: 1)).title == "c", "NULL sorts last descending")
        #expect(controller.indexPath(for: Note.id(5)) == IndexPath(row: 1, section: 2), "ties by rowid")
        #expect(try controller.fetchedObjects.map(\.title) == ["d", "a", "c", "b", "e"])
        #expect(throws: FetchedResultsError.indexPathOutOfBounds(IndexPath(row: 2, section: 0))) {
            try controller.object(at: IndexPath(row: 2, section: 0))
        }
    }

    @Test func sectionKeyMustBeTheFirstSortKey() {
        let request = StoreRequest<Note>().order(Column("score").ascending, Column("grp").ascending).sectioned(by: Column("grp"))
        let controller = FetchedResultsController(store: store, request: request)
        #expect(throws: FetchedResultsError.sectionKeyNotFirstSortKey(sectionKey: "grp", firstSortKey: "score")) {
            try controller.performFetch()
        }
    }

    @Test func oneRowChangesArriveAsChangeSetsWithTheirResults() async throws {
        let controller = FetchedResultsController(store: store, request: sectioned())
        try controller.performFetch()
        var changes = controller.changes().makeAsyncIterator()
        var before = controller.results.sectionedSnapshot()
        try await store.write { db in try db.execute(sql: "UPDATE note SET score = 5 WHERE id = 3") }
        let move = try #require(await changes.next())
        #expect(
            move.changeSet
                == ChangeSet(moves: [.init(from: IndexPath(row: 1, section: 1), to: IndexPath(row: 0, section: 1), isChanged: true)]))
        #expect(try move.changeSet.applied(to: before, new: move.results.sectionedSnapshot()) == store.freshSnapshot(sectioned()))
        before = move.results.sectionedSnapshot()
        try await store.write { db in try db.execute(sql: "UPDATE note SET title = 'B' WHERE id = 2") }
        let update = try #require(await changes.next())
        #expect(update.changeSet == ChangeSet(updates: [IndexPath(row: 0, section: 2)]))
        #expect(try controller.object(at: IndexPath(row: 0, section: 2)).title == "B", "the cache forgot the updated row")
        try await store.write { db in
            try db.execute(script: "DELETE FROM note WHERE id = 4; INSERT INTO note(title, grp) VALUES ('f', 'z')")
        }
        let sections = try #require(await changes.next())
        #expect(sections.changeSet == ChangeSet(sectionDeletes: [0], sectionInserts: [2]))
        #expect(controller.sections.map(\.name) == ["x", "y", "z"])
    }

    @Test func setRequestPublishesTheChangeFromOldToNewResults() throws {
        let controller = FetchedResultsController(store: store, request: StoreRequest<Note>().order(Column("title").ascending))
        try controller.performFetch()
        var delivered: [ChangeSet] = []
        controller.didChange = { delivered.append($0.changeSet) }
        let old = controller.results.sectionedSnapshot()
        let newRequest = StoreRequest<Note>().filter(Column("score") >= 2).order(Column("title").descending)
        try controller.setRequest(newRequest)
        let changeSet = try #require(delivered.first)
        #expect(try changeSet.applied(to: old, new: controller.results.sectionedSnapshot()) == store.freshSnapshot(newRequest))
        #expect(try controller.fetchedObjects.map(\.title) == ["d", "a"])
    }

    /// Writes without suspending, so the main actor stays busy.
    private func writeBlocking(_ sql: String) throws {
        try store.write { db in try db.execute(sql: sql) }
    }

    @Test func transactionsTheConsumerHasNotTakenCoalesce() async throws {
        let controller = FetchedResultsController(store: store, request: StoreRequest<Note>().order(Column("score").ascending))
        try controller.performFetch()
        var delivered: [ChangeSet] = []
        controller.didChange = { delivered.append($0.changeSet) }
        let before = controller.results.sectionedSnapshot()
        // The main actor is busy in this test while the three commit, so it takes them as one.
        try writeBlocking("UPDATE note SET score = 10 WHERE id = 2")
        try writeBlocking("DELETE FROM note WHERE id = 3")
        try writeBlocking("UPDATE note SET score = 11 WHERE id = 2")
        // Blocks until the engine has handled all three (waiting with `await` would let the
        // main actor take the first ones before the engine handled the last, half the time).
        try controller.catchUp()
        #expect(delivered.count == 1)
        #expect(
            try delivered[0].applied(to: before, new: controller.results.sectionedSnapshot()) == store.freshSnapshot(controller.request))
    }

    /// 100,000 rows: a million took over 60 s in a debug build, all of it on the main actor
    /// (`performFetch` is synchronous), and every other main-actor suite ran past its time limit.
    @Test func oneRowUpdateInALargeResultDoesNotReadTheResultAgain() async throws {
        try await store.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
                    INSERT INTO note(title, grp, score) SELECT 't' || i, 'g' || (i % 10), i % 1000 FROM n
                    """)
        }
        let request = StoreRequest<Note>().order(Column("grp").ascending, Column("score").ascending)
            .sectioned(by: Column("grp")).batchSize(100)
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        try controller.catchUp()  // the rest of the first page's read
        let afterFetch = controller.rowsRead
        #expect(afterFetch == FetchedResultsController<Note>.firstPageSize + 1 + 100_005, "the first page, then the index")
        var changes = controller.changes().makeAsyncIterator()
        try await store.write { db in try db.execute(sql: "UPDATE note SET score = 5000, grp = 'g3' WHERE id = 50000") }
        let change = try #require(await changes.next())
        #expect(change.changeSet.moves.count == 1)
        #expect(controller.rowsRead - afterFetch == 1, "only the changed row was read again")
        #expect(try controller.object(at: controller.indexPath(for: Note.id(50_000)) ?? IndexPath(row: -1, section: 0)).score == 5000)
        #expect(controller.rowsRead - afterFetch <= 101, "one batch read for the object")
    }

    /// A controller of `table` in rowid order, fetched, and the change sets it delivers.
    private func controller(of table: String) throws -> (FetchedResultsController<Note>, DeliveredChangeSets) {
        let controller = FetchedResultsController(store: store, request: StoreRequest<Note>(tableName: table))
        try controller.performFetch()
        let delivered = DeliveredChangeSets()
        controller.didChange = { delivered.changeSets.append($0.changeSet) }
        return (controller, delivered)
    }

    @MainActor private final class DeliveredChangeSets {
        var changeSets: [ChangeSet] = []
    }

    /// `"CAFÉS"` and `"cafés"` are two tables (SQLite folds ASCII letters only): a controller
    /// follows its own, not its twin.
    @Test func aWriteReachesTheControllerOfItsTableNotOfItsTwin() async throws {
        try await store.write { db in
            try db.execute(
                script: """
                    CREATE TABLE "CAFÉS"(id INTEGER PRIMARY KEY, title TEXT NOT NULL, grp TEXT, score INTEGER);
                    CREATE TABLE "cafés"(id INTEGER PRIMARY KEY, title TEXT NOT NULL, grp TEXT, score INTEGER);
                    INSERT INTO "CAFÉS"(id, title) VALUES (1, 'upper');
                    INSERT INTO "cafés"(id, title) VALUES (1, 'lower');
                    """)
        }
        let (upper, upperDelivered) = try controller(of: "CAFÉS")
        let (lower, lowerDelivered) = try controller(of: "cafés")
        try await store.write { db in
            try db.execute(sql: #"UPDATE "CAFÉS" SET title = 'UPPER' WHERE id = 1"#)
            try db.execute(sql: #"INSERT INTO "CAFÉS"(id, title) VALUES (2, 'second')"#)
        }
        try await upper.waitUntilCurrent()
        try await lower.waitUntilCurrent()
        #expect(try upper.fetchedObjects.map(\.title) == ["UPPER", "second"])
        #expect(
            upperDelivered.changeSets == [ChangeSet(inserts: [IndexPath(row: 1, section: 0)], updates: [IndexPath(row: 0, section: 0)])])
        #expect(try lower.fetchedObjects.map(\.title) == ["lower"])
        #expect(lowerDelivered.changeSets.isEmpty, "the twin's controller saw no change")
        #expect(lower.indexPath(for: ObjectID(table: "CAFÉS", rowID: 1)) == nil, "another table's object is not in its results")
        #expect(lower.indexPath(for: ObjectID(table: "cafés", rowID: 1)) == IndexPath(row: 0, section: 0))
    }

    @Test func aTableNamedInOtherASCIICaseIsTheSameTable() async throws {
        let (controller, delivered) = try controller(of: "NOTE")
        try await store.write { db in try db.execute(sql: "INSERT INTO Note(title) VALUES ('f')") }
        try await controller.waitUntilCurrent()
        #expect(try controller.fetchedObjects.map(\.title) == ["a", "b", "c", "d", "e", "f"])
        #expect(delivered.changeSets == [ChangeSet(inserts: [IndexPath(row: 5, section: 0)])])
        #expect(controller.indexPath(for: ObjectID(table: "nOTE", rowID: 6)) == IndexPath(row: 5, section: 0))
    }
}
