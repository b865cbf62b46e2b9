import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// When the controller reads its results again (external commits, SQL-fragment predicates,
/// limit/offset, whole-table changes) it reports as updated only rows whose values changed.
@MainActor @Suite(.timeLimit(.minutes(10))) struct PreciseUpdateTests {
    let directory: TemporaryDirectory
    let store: Store
    let other: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Note.schema)
        other = try Store(path: directory.path("test.sqlite"))
    }

    private func fill(_ count: Int) async throws {
        try await store.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                    INSERT INTO note(title, grp, score) SELECT 't' || i, 'g' || (i % 10), i % 1000 FROM n
                    """, arguments: [count])
        }
    }

    /// Issue 17, item 4: precision counted for an external one-row update in 100,000 rows:
    /// exactly one update.
    @Test func externalOneRowUpdateInAHundredThousandRowsIsOneUpdate() async throws {
        try await fill(100_000)
        let controller = FetchedResultsController(
            store: store,
            request: StoreRequest<Note>()
                .order(Column("grp").ascending, Column("score").ascending).sectioned(by: Column("grp")).batchSize(100))
        try controller.performFetch()
        try controller.catchUp()  // the rest of the first page's read
        let checker = ReplayChecker(controller)
        try await other.write { db in try db.execute(sql: "UPDATE note SET title = 'changed' WHERE id = 50000") }
        try store.checkForExternalChanges()
        try await checker.check(store, "external update")
        #expect(checker.delivered.count == 1)
        #expect(checker.delivered.map(\.updates.count) == [1], "precision: one reported update for one changed row")
        #expect(checker.delivered.flatMap(\.moves).isEmpty && checker.delivered.flatMap(\.inserts).isEmpty)
        #expect(try controller.object(at: try #require(controller.indexPath(for: Note.id(50000)))).title == "changed")
    }

    /// Re-fetched requests (an SQL fragment, a window) report only rows whose values changed,
    /// also for own transactions that rewrite a row with the values it had.
    @Test(arguments: [
        StoreRequest<Note>().filter(SQLExpression(sql: "length(title) > ?", arguments: [1])).order(Column("score").ascending),
        StoreRequest<Note>().order(Column("score").ascending).limit(50, offset: 10),
    ])
    func refetchedRequestsReportOnlyChangedRows(request: StoreRequest<Note>) async throws {
        try await fill(200)
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        try controller.catchUp()  // the rest of the first page's read
        let checker = ReplayChecker(controller)
        try await store.write { db in try db.execute(sql: "UPDATE note SET title = title, grp = grp") }
        try await checker.check(store, "values rewritten as they were")
        #expect(checker.delivered.isEmpty, "nothing changed, nothing delivered")
        try await store.write { db in try db.execute(sql: "UPDATE note SET title = 'x' || title WHERE id IN (15, 16)") }
        try await checker.check(store, "two titles changed")
        #expect(checker.delivered.map(\.updates.count) == [2])
    }

    /// Issue 13, item 5: `PRAGMA data_version` also changes when another connection resets
    /// the WAL (a TRUNCATE or RESTART checkpoint), though no row changed. The store publishes
    /// "may have changed"; the controller re-reads, finds nothing changed and delivers nothing
    /// (it used to deliver every row as updated, a second time after an external commit).
    @Test func externalCheckpointWithoutChangesDeliversNothing() async throws {
        try await fill(1_000)
        let controller = FetchedResultsController(store: store, request: StoreRequest<Note>().order(Column("title").ascending))
        try controller.performFetch()
        try controller.catchUp()  // the rest of the first page's read
        let checker = ReplayChecker(controller)
        try await other.write { db in try db.execute(sql: "UPDATE note SET score = -1 WHERE id = 7") }
        try store.checkForExternalChanges()
        try await checker.check(store, "external update")
        #expect(checker.delivered.map(\.updates.count) == [1])
        try other.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try store.checkForExternalChanges()
        try await checker.check(store, "external checkpoint")
        #expect(checker.delivered.isEmpty, "a checkpoint changes no row")
    }
}
