import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// The first fetch shows the first page, then appends the rest read from the same snapshot;
/// stopping the controller stops that read.
@MainActor @Suite(.timeLimit(.minutes(10))) struct FirstScreenTests {
    let directory: TemporaryDirectory
    let store: Store
    static let pageSize = FetchedResultsController<Note>.firstPageSize
    static let byGroup = StoreRequest<Note>().order(Column("grp").ascending, Column("score").ascending).sectioned(by: Column("grp"))

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Note.schema + "CREATE INDEX note_by_score ON note(score);")
    }

    /// `rows` notes in groups of `groupSize` rows (`g000`, `g001`, …), scored by id, in
    /// `target` (the suite's store by default).
    private func fill(_ rows: Int, groupSize: Int = 100, into target: Store? = nil) throws {
        try (target ?? store).write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                    INSERT INTO note(title, grp, score) SELECT 't' || i, printf('g%03d', (i - 1) / ?), i FROM n
                    """,
                arguments: [rows, groupSize])
        }
    }

    private func writeBlocking(_ sql: String) throws {
        try store.write { db in try db.execute(sql: sql) }
    }

    /// A write-ahead log with something to checkpoint, then a checkpoint that must not find a
    /// reader in the way: `true` when it moved the whole log.
    private func checkpointSucceeds() throws -> Bool {
        try store.write { db in try db.execute(sql: "UPDATE note SET title = title WHERE id = 1") }
        let result = try store.writeWithoutTransaction { db in try db.fetchRows(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        return result.first?[0] == .integer(0)
    }

    @Test func theFirstPageShowsItsSectionsThenOneChangeAppendsTheRest() async throws {
        try fill(1_000, groupSize: 20)
        // The page's rows fill `fullSections` sections and part of the next.
        let (fullSections, lastRows) = (Self.pageSize + 1).quotientAndRemainder(dividingBy: 20)
        let controller = FetchedResultsController(store: store, request: Self.byGroup)
        controller.holdsBackgroundReadAfter = 0  // its rows are counted once it is done: not yet
        try controller.performFetch()
        #expect(!controller.isComplete)
        #expect(controller.numberOfObjects == Self.pageSize + 1)
        #expect(controller.sections.map(\.numberOfObjects) == Array(repeating: 20, count: fullSections) + [lastRows])
        #expect(try controller.object(at: IndexPath(row: 0, section: 0)).title == "t1")
        #expect(controller.rowsRead == Self.pageSize + 1, "the page's rows, with their objects in the same statement, nothing else")
        // Past the page's sections: found in the complete index of the page's snapshot.
        #expect(try controller.object(at: IndexPath(row: 5, section: 40)).title == "t806")
        #expect(throws: FetchedResultsError.indexPathOutOfBounds(IndexPath(row: 20, section: 40))) {
            try controller.object(at: IndexPath(row: 20, section: 40))
        }
        #expect(throws: FetchedResultsError.indexPathOutOfBounds(IndexPath(row: 0, section: 50))) {
            try controller.object(at: IndexPath(row: 0, section: 50))
        }

        let checker = ReplayChecker(controller)
        controller.resumeBackgroundRead()
        #expect(try await checker.check(store))
        #expect(controller.isComplete && controller.numberOfObjects == 1_000)
        #expect(
            checker.delivered == [
                ChangeSet(
                    sectionInserts: Array(fullSections + 1..<50),
                    inserts: (lastRows..<20).map { IndexPath(row: $0, section: fullSections) })
            ])
    }

    @Test func anObjectPastTheFirstPageIsTheRowOfThePagesSnapshot() throws {
        try fill(100_000)
        let controller = FetchedResultsController(store: store, request: StoreRequest<Note>().order(Column("score").descending))
        try controller.performFetch()
        #expect(!controller.isComplete)
        // Far ahead of the background read: a keyset query in its transaction.
        #expect(try controller.object(at: IndexPath(row: 60_000, section: 0)).title == "t40000")
        // Rows leave the front and new ones arrive there after the snapshot: positions still count in it.
        try writeBlocking("DELETE FROM note WHERE id > 99000")
        try writeBlocking("INSERT INTO note(title, score) VALUES ('new', 1000000)")
        #expect(!controller.isComplete)
        #expect(try controller.object(at: IndexPath(row: 5_000, section: 0)).title == "t95000")
        #expect(try controller.object(at: IndexPath(row: 99_999, section: 0)).title == "t1")
        #expect(throws: FetchedResultsError.indexPathOutOfBounds(IndexPath(row: 100_000, section: 0))) {
            try controller.object(at: IndexPath(row: 100_000, section: 0))
        }
    }

    @Test func aSectionedObjectFarAheadOfTheBackgroundReadIsFoundWithoutTheRest() async throws {
        try fill(100_000)
        try writeBlocking("CREATE INDEX note_by_group ON note(grp, score)")  // sections skipped a seek each
        let controller = FetchedResultsController(store: store, request: Self.byGroup.batchSize(10))
        // Held after 256 rows: sections 0 and 1 read, section 2 being read (56 rows); waiting
        // for the complete index would wait for ever.
        controller.holdsBackgroundReadAfter = 256
        try controller.performFetch()
        #expect(try controller.object(at: IndexPath(row: 80, section: 2)).title == "t281", "on from the last row read")
        #expect(try controller.object(at: IndexPath(row: 5, section: 900)).title == "t90006", "898 sections stepped over")
        #expect(try controller.object(at: IndexPath(row: 99, section: 999)).title == "t100000")
        for end in [IndexPath(row: 100, section: 900), IndexPath(row: 0, section: 1_000)] {
            #expect(throws: FetchedResultsError.indexPathOutOfBounds(end)) { try controller.object(at: end) }
        }
        #expect(!controller.isComplete)
        controller.resumeBackgroundRead()
        try await controller.waitUntilCurrent()
        #expect(controller.isComplete)
        // The page, the index once, the rows asked for (a batch of 10 each, with its objects)
        // and the section key values stepped over (3,790).
        #expect(controller.rowsRead < Self.pageSize + 1 + 100_000 + 5_000, "\(controller.rowsRead): the results were read once")
    }

    @Test func anInMemoryStoreReadsEveryRowBeforeReturning() throws {
        // A read transaction left open on an in-memory store's only connection would hold up writes.
        let store = try Store.inMemory()
        try store.write { db in try db.execute(sql: Note.schema) }
        try store.write { db in
            try db.execute(
                sql:
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) INSERT INTO note(title) SELECT 't' || i FROM n"
            )
        }
        let controller = FetchedResultsController(store: store, request: StoreRequest<Note>().order(Column("title").ascending))
        try controller.performFetch()
        #expect(controller.isComplete && controller.numberOfObjects == 1_000)
        #expect(controller.rowsRead == 1_000 + Self.pageSize + 1, "every index row, the first page's objects")
    }

    @Test func aWriteDuringTheBuildReachesTheConsumerOnce() async throws {
        try fill(5_000)
        let controller = FetchedResultsController(store: store, request: StoreRequest<Note>().order(Column("score").ascending))
        try controller.performFetch()
        let checker = ReplayChecker(controller)
        try writeBlocking("UPDATE note SET score = 0 WHERE id = 4000")
        #expect(try await checker.check(store))
        #expect(try controller.object(at: IndexPath(row: 0, section: 0)).id == 4000)
        #expect(controller.numberOfObjects == 5_000)
    }

    /// The whole index read past a batch of rows (`KeyMap.appendBatch`) puts them in pages
    /// made for the read, filled in place: full pages, and pages left partly empty by deleted
    /// rowids, with keys of several kinds in one page (NULL, texts of every stored length,
    /// integers). Every row's keys are found again: changed rows move without the results
    /// being read again, and the results stay SQLite's.
    @Test func aWholeIndexPastABatchFindsEveryRowsKeys() async throws {
        let rows = 2 * KeyMap.appendBatch + 5_000
        try fillWithMixedKeys(rows)
        let request = StoreRequest<Note>().order(Column("grp").ascending, Column("score").descending)
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        let checker = ReplayChecker(controller)
        #expect(try await checker.check(store, "complete"))
        var random = SeededGenerator()
        for step in 0..<20 {
            let before = controller.rowsRead
            let changed = try updateRandomRows(5, of: rows, &random)
            #expect(try await checker.check(store, "seed \(random.seed), step \(step)"))
            #expect(controller.rowsRead - before <= changed, "seed \(random.seed), step \(step): the results were read again")
        }
    }

    /// `rows` notes whose group is NULL or a text of 0 to 23 bytes and whose score is NULL or
    /// a number, spread over the rowids; pages 2 to 9 then lose a run of rowids each.
    private func fillWithMixedKeys(_ rows: Int) throws {
        try store.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                    INSERT INTO note(title, grp, score)
                    SELECT 't' || i,
                        CASE WHEN i % 7 = 0 THEN NULL ELSE substr('abcdefghijklmnopqrstuvwxyz', 1 + i * 37 % 26, i * 13 % 24) END,
                        CASE WHEN i % 5 = 0 THEN NULL ELSE i * 7919 % 1000 END
                    FROM n
                    """,
                arguments: [rows])
            try db.execute(sql: "DELETE FROM note WHERE id BETWEEN 2048 AND 10239 AND id % 1024 BETWEEN 100 AND 300")
        }
    }

    /// Gives `count` random notes among the first `rows` a new group and score, in one
    /// transaction; returns `count`.
    private func updateRandomRows(_ count: Int, of rows: Int, _ random: inout SeededGenerator) throws -> Int {
        let updates: [[any DatabaseValueConvertible]] = (0..<count).map { _ in
            let group: String? = Bool.random(using: &random) ? nil : String(repeating: "m", count: Int.random(in: 0...20, using: &random))
            return [group, Int.random(in: 0...1_000, using: &random), Int.random(in: 1...rows, using: &random)]
        }
        try store.write { db in
            for arguments in updates { try db.execute(sql: "UPDATE note SET grp = ?, score = ? WHERE id = ?", arguments: arguments) }
        }
        return count
    }

    @Test func aSmallResultIsCompleteAtOnce() throws {
        try fill(Self.pageSize)
        let controller = FetchedResultsController(store: store, request: Self.byGroup)
        try controller.performFetch()
        #expect(controller.isComplete && controller.numberOfObjects == Self.pageSize)
    }

    @Test func droppingTheControllerMidBuildEndsTheRead() async throws {
        try fill(100_000)
        var controller: FetchedResultsController<Note>? = FetchedResultsController(
            store: store, request: StoreRequest<Note>().order(Column("title").ascending).batchSize(50))
        try controller?.performFetch()
        #expect(controller?.isComplete == false)
        let changes = try #require(controller?.changes())
        controller = nil
        var delivered = 0
        // The sequence ends when the controller's engine goes, once its read has returned.
        for try await _ in changes { delivered += 1 }
        #expect(delivered == 0, "the rest was not read")
        #expect(try checkpointSucceeds())
    }

    /// An order no index serves makes the background read sort every row before its first:
    /// a controller released during that sort stops it within a few rows, rather than leaving
    /// it to run to its end on a reader (a list opened and closed at once, a search typed
    /// letter by letter). The predicate compares each row's title with a collation that
    /// counts the rows the background read scans and holds it after 100 of them.
    @Test func releasingTheControllerStopsTheSortOfItsBackgroundRead() async throws {
        let gate = ScanGate(holdAfter: 100)
        var configuration = StoreConfiguration()
        configuration.collations = [Collation(name: "probe") { left, right in gate.compare(left, right) }]
        let store = try directory.makeStore(named: "probed.sqlite", configuration: configuration, schema: Note.schema)
        try fill(20_000, into: store)
        let request = StoreRequest<Note>().filter(SQLExpression(sql: "title > '' COLLATE probe")).order(Column("title").ascending)
        var controller: FetchedResultsController<Note>? = FetchedResultsController(store: store, request: request)
        try controller?.performFetch()
        let changes = try #require(controller?.changes())
        #expect(gate.reached.wait(timeout: .now() + 60) == .success, "the background read scans the rows")
        controller = nil
        gate.resume.signal()
        for try await _ in changes {}
        #expect(gate.backgroundScans < 2_000, "the sort stopped within a few rows of the release")
        try await store.write { db in try db.execute(sql: "UPDATE note SET title = title WHERE id = 1") }
        let checkpoint = try store.writeWithoutTransaction { db in try db.fetchRows(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        #expect(checkpoint.first?[0] == .integer(0), "the background read ended")
    }

    /// Another connection's commit makes a controller read every row again; once the
    /// controller is released, that re-read stops within its first rows instead of running on.
    @Test func aReleasedControllerStopsReadingEveryRowAgain() async throws {
        try fill(100_000)
        var controller: FetchedResultsController<Note>? = FetchedResultsController(
            store: store, request: StoreRequest<Note>().order(Column("title").ascending).batchSize(50))
        try controller?.performFetch()
        try controller?.catchUp()
        let engine = try #require(controller.flatMap { Mirror(reflecting: $0).descendant("engine") } as? FetchedResultsEngine<Note>)
        let rowsRead = engine.rowsRead.withLock { $0 }
        controller = nil
        let other = try Store(path: directory.path("test.sqlite"))
        try await other.write { db in try db.execute(sql: "UPDATE note SET title = 'changed' WHERE id = 50000") }
        try store.checkForExternalChanges()
        await engine.flush()
        #expect(engine.rowsRead.withLock { $0 } - rowsRead < 1_000, "the re-read stopped")
        #expect(try checkpointSucceeds())
    }

    @Test func setRequestMidBuildEndsTheReadAndShowsTheNewResults() async throws {
        try fill(100_000)
        let controller = FetchedResultsController(
            store: store, request: StoreRequest<Note>().order(Column("title").ascending).batchSize(50))
        try controller.performFetch()
        #expect(!controller.isComplete)
        let checker = ReplayChecker(controller)
        let request = StoreRequest<Note>().filter(Column("score") <= 10).order(Column("score").descending)
        try controller.setRequest(request)
        #expect(controller.rowsRead < Self.pageSize + 1 + 100_000 + 10 + 10, "the whole first index was not read")
        #expect(controller.isComplete && controller.numberOfObjects == 10)
        #expect(try await checker.check(store))
        #expect(checker.delivered.count == 1)
        #expect(try checkpointSucceeds())
    }

    @Test func moreListsThanReadersOpenInTurnAndFollowTheStore() async throws {
        // One reader: each first fetch waits for the one the build before it holds.
        var configuration = StoreConfiguration()
        configuration.readerCount = 1
        let store = try directory.makeStore(named: "one-reader.sqlite", configuration: configuration, schema: Note.schema)
        try await store.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
                    INSERT INTO note(title, grp, score) SELECT 't' || i, printf('g%03d', i % 50), i FROM n
                    """)
        }
        let requests = [
            Self.byGroup, StoreRequest<Note>().order(Column("title").descending),
            StoreRequest<Note>().filter(Column("score") > 500).order(Column("score").ascending).batchSize(50),
            StoreRequest<Note>().order(Column("grp").ascending, Column("title").ascending).batchSize(20),
        ]
        let controllers = requests.map { FetchedResultsController(store: store, request: $0) }
        for controller in controllers { try controller.performFetch() }
        let checkers = controllers.map { ReplayChecker($0) }
        try await store.write { db in
            try db.execute(
                script: """
                    UPDATE note SET score = -score, grp = 'g999' WHERE id % 7 = 0;
                    DELETE FROM note WHERE id % 11 = 0;
                    INSERT INTO note(title, grp, score) VALUES ('a new one', 'g000', 600);
                    """)
        }
        for (number, checker) in checkers.enumerated() {
            #expect(try await checker.check(store, "controller \(number)"))
            #expect(controllers[number].isComplete)
        }
        #expect(try await store.read { db in try db.fetchCount(StoreRequest<Note>()) } == 20_000 - 20_000 / 11 + 1)
        try await store.write { db in try db.execute(sql: "UPDATE note SET title = title WHERE id = 1") }
        let checkpoint = try store.writeWithoutTransaction { db in try db.fetchRows(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        #expect(checkpoint.first?[0] == .integer(0), "a held read was never ended")
    }

    @Test func anInvalidRequestThrowsBeforeReadingAnything() {
        let controller = FetchedResultsController(
            store: store, request: StoreRequest<Note>().order(Column("score").ascending).sectioned(by: Column("grp")))
        #expect(throws: FetchedResultsError.sectionKeyNotFirstSortKey(sectionKey: "grp", firstSortKey: "score")) {
            try controller.performFetch()
        }
        #expect(controller.rowsRead == 0 && !controller.isFetched)
    }
}

/// A collation that compares as `BINARY` does and counts the comparisons of the background
/// read: those made on another thread than the first comparison's (the first page is read on
/// the caller's thread, the rest on the engine's); at the `holdAfter`th it signals `reached`
/// and waits for `resume`.
private final class ScanGate: Sendable {
    let reached = DispatchSemaphore(value: 0)
    let resume = DispatchSemaphore(value: 0)
    private let holdAfter: Int
    private let state = Locked((firstThread: pthread_t?.none, backgroundScans: 0))

    init(holdAfter: Int) { self.holdAfter = holdAfter }

    /// How many comparisons the background read made.
    var backgroundScans: Int { state.withLock { $0.backgroundScans } }

    func compare(_ left: String, _ right: String) -> ComparisonResult {
        let count = state.withLock { state -> Int? in
            let thread = pthread_self()
            guard let first = state.firstThread else {
                state.firstThread = thread
                return nil
            }
            guard pthread_equal(first, thread) == 0 else { return nil }
            state.backgroundScans += 1
            return state.backgroundScans
        }
        if count == holdAfter {
            reached.signal()
            resume.wait()
        }
        return left == right
            ? .orderedSame : Array(left.utf8).lexicographicallyPrecedes(right.utf8) ? .orderedAscending : .orderedDescending
    }
}
