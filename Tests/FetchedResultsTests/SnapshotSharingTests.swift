import Foundation
import SQLiteStoreCore
import TestSupport
import Testing

@testable import SQLiteStoreResults

/// A consumer that keeps the previous change's results (as a diffable data source keeps its
/// last snapshot) does not make a later one-row change copy the results: the new results
/// share all but a few small buffers with the kept ones, and the bytes they do not share do
/// not grow with the number of rows. Measured in bytes of buffers, not in time.
@MainActor @Suite(.timeLimit(.minutes(10))) struct SnapshotSharingTests {
    @Test(arguments: [false, true]) func oneRowChangeCopiesAsLittleAtAnySize(sectioned: Bool) async throws {
        let small = try await bytesNotShared(rows: 10_000, sectioned: sectioned)
        let large = try await bytesNotShared(rows: 160_000, sectioned: sectioned)
        #expect(
            large.unshared < small.unshared * 5 / 4,
            "not shared: \(small.unshared) bytes of \(small.total), then \(large.unshared) of \(large.total)")
        #expect(large.unshared * 100 < large.total, "not shared: \(large.unshared) bytes of \(large.total)")
    }

    /// The bytes of the results after a one-row move that the results before it, kept by
    /// the consumer, do not share; and the bytes of all the results.
    private func bytesNotShared(rows: Int, sectioned: Bool) async throws -> (unshared: Int, total: Int) {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(
            schema: Note.schema + """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
                INSERT INTO note(title, grp, score) SELECT 'n' || i, CASE i % 3 WHEN 0 THEN 'a' ELSE 'b' END, (i * 7919) % \(rows) FROM n;
                """)
        let request =
            sectioned
            ? StoreRequest<Note>().order(Column("grp").ascending, Column("score").ascending).sectioned(by: Column("grp"))
            : StoreRequest<Note>().order(Column("score").ascending)
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        try controller.catchUp()  // the rest of the first page's read, so that each change below moves one row
        var changes = controller.changes().makeAsyncIterator()
        try await store.write { db in try db.execute(sql: "UPDATE note SET score = -1 WHERE id = 2") }
        let kept = try #require(try await changes.next()).results
        try await store.write { db in try db.execute(sql: "UPDATE note SET score = \(rows) WHERE id = 5") }
        let next = try #require(try await changes.next()).results
        #expect(next.numberOfObjects == rows)
        var keptBuffers: Set<UInt> = []
        kept.index.forEachBuffer { address, _ in keptBuffers.insert(address) }
        var measured = (unshared: 0, total: 0)
        next.index.forEachBuffer { address, bytes in
            measured.total += bytes
            if !keptBuffers.contains(address) { measured.unshared += bytes }
        }
        return measured
    }
}
