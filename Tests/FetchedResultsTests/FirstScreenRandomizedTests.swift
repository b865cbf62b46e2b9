import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// Writers commit inserts, moving updates and deletes (by the store, by another connection,
/// rolled back) while a controller reads its index in the background
/// after the first page; once quiet, every delivered change set must replay the results
/// before it into a fresh read, and the results must be that read.
///
/// While the results are still the first page, objects are read at random index paths of the
/// complete results, past the page too: each must be the row of the page's snapshot there.
/// The background reads hold after a random number of rows until then, so that every index
/// path past those rows (a row further on in the section being read, a later section, past
/// the end) is found by the keyset queries, never in the complete index.
///
/// `STORE_TEST_SEED` replays a seed.
/// The shapes run one at a time, and the table is filled and first read off the main actor:
/// five shapes at once kept the main actor busy (synchronous reads of the complete index,
/// blocking writes) long enough for other main-actor suites to pass their time limit.
@MainActor @Suite(.serialized, .timeLimit(.minutes(10))) struct FirstScreenRandomizedTests {
    /// The shapes: sectioned, filtered, descending, NOCASE text order (no index has it), an
    /// unindexed order; with and without a batch size. Sections: NULL first (ascending) and
    /// last (descending), by NOCASE (`a` and `A` share one), by a collation only SQLite knows
    /// (SQLite numbers rows and sections), by a related column (NOCASE on its table); found
    /// past the rows read a section at a time in an index (ascending and descending), or with
    /// `SELECT DISTINCT … OFFSET` (NOCASE, the collation SQLite alone knows, the related column).
    /// Orders SQLite sorts read their first page's rowids alone (NOCASE, title then score); a
    /// descending order on an index declared `DESC`, on a `NOT NULL` column, seeks past the rows read.
    nonisolated static let requests: [StoreRequest<Note>] = [
        StoreRequest<Note>().order(Column("grp").ascending, Column("score").ascending).sectioned(by: Column("grp")),
        StoreRequest<Note>().filter(Column("score") >= 300).order(Column("score").ascending).batchSize(50),
        StoreRequest<Note>().order(Column("score").descending),
        StoreRequest<Note>().order(Column("title").ascending(collation: .nocase)).batchSize(20),
        StoreRequest<Note>().filter(Column("grp") != "b").order(Column("title").descending, Column("score").ascending),
        StoreRequest<Note>().filter(Column("score") != 7).order(Column("grp").descending(collation: .nocase), Column("title").ascending)
            .sectioned(by: Column("grp")).batchSize(30),
        StoreRequest<Note>().order(Column("grp").ascending(collation: shortestFirst), Column("score").descending)
            .sectioned(by: Column("grp")),
        StoreRequest<Note>().order(Column("label", through: team).descending, Column("score").ascending)
            .sectioned(by: Column("label", through: team)).batchSize(40),
        StoreRequest<Note>().order(Column("grp").descending, Column("score").descending).sectioned(by: Column("grp")),
        StoreRequest<Note>().filter(Column("score") != 3).order(Column("title").descending).batchSize(25),
    ]

    /// A note's team, by its group: a link by a TEXT key (not incremental: read again).
    nonisolated static let team = ToOneLink(name: "team", childTable: "note", foreignKey: "grp", parentTable: "team", referencedKey: "code")

    /// Known to SQLite only (registered behind the store's back): shorter texts first, then
    /// bytes in reverse.
    nonisolated static let shortestFirst = Collation(name: "shortest_first") { lhs, rhs in
        let (left, right) = (Array(lhs.utf8), Array(rhs.utf8))
        if left.count != right.count { return left.count < right.count ? .orderedAscending : .orderedDescending }
        return left == right ? .orderedSame : (right.lexicographicallyPrecedes(left) ? .orderedAscending : .orderedDescending)
    }

    static let schema =
        Note.schema + """
            CREATE INDEX note_by_score ON note(score);
            CREATE INDEX note_by_group ON note(grp, score);
            CREATE INDEX note_by_title ON note(title DESC);
            CREATE TABLE team(code TEXT PRIMARY KEY, label TEXT COLLATE NOCASE);
            INSERT INTO team VALUES ('a', 'Alpha'), ('A', 'alpha'), ('b', 'Beta'), ('B', 'gamma'), ('c', NULL);
            """

    static var configuration: StoreConfiguration {
        var configuration = StoreConfiguration()
        configuration.prepareDatabase = { db in try db.register(shortestFirst) }
        return configuration
    }

    @Test(arguments: requests.indices) func writesDuringTheBuildReachTheResultsExactlyOnce(shape: Int) async throws {
        let seed = SeededGenerator.seedFromEnvironment()
        print("FirstScreenRandomizedTests seed: \(seed), shape \(shape) (replay with STORE_TEST_SEED=\(seed))")
        var random = SeededGenerator(seed: seed &+ UInt64(shape))
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(configuration: Self.configuration, schema: Self.schema)
        let other = try Store(path: directory.path("test.sqlite"), configuration: Self.configuration)
        let rows = Int.random(in: 10_000...16_000, using: &random)
        let (multiplier, modulus) = (Int.random(in: 3...97, using: &random), Int.random(in: 400...1_000, using: &random))
        let request = Self.requests[shape]
        let snapshot = try await Task.detached {
            try Self.fill(store, rows: rows, multiplier: multiplier, modulus: modulus)
            return try store.freshSnapshot(request)
        }.value
        let paths = snapshot.sections.enumerated().flatMap { section, content in
            content.ids.indices.map { IndexPath(row: $0, section: section) }
        }
        // The background reads hold once they have read `hold` rows (they answer every 256).
        let hold = 256 * Int.random(in: 1...max(1, paths.count / 512), using: &random)
        let controller = FetchedResultsController(store: store, request: request)
        controller.holdsBackgroundReadAfter = hold
        try controller.performFetch()
        #expect(!controller.isComplete && controller.numberOfObjects == FetchedResultsController<Note>.firstPageSize + 1)
        let checker = ReplayChecker(controller)

        // The first transactions commit while the index is being read (held); later ones
        // race with their delivery.
        for _ in 0..<5 {
            try commitBlocking(randomStatements(rows: rows, &random), in: store)
            try expectSnapshotRows(
                of: controller, at: snapshot, paths: paths, beingRead: paths[hold - 1].section, &random,
                "seed \(seed), shape \(shape), hold \(hold)")
        }
        controller.resumeBackgroundRead()
        // Only the store's own commits so far: each must have been captured during the build
        // and applied once the index was complete (by rows, or by reading the results again
        // for the shapes whose changes cannot be applied row by row).
        #expect(try await checker.check(store, "seed \(seed), shape \(shape), after the commits during the build"))
        for _ in 0..<25 {
            try await RandomCommit.run(randomStatements(rows: rows, &random), store: store, other: other, &random)
        }
        #expect(try await checker.check(store, "seed \(seed), shape \(shape)"))
        #expect(controller.isComplete)
        #expect(controller.results.sectionedSnapshot().isExactly(try store.freshSnapshot(request)))
    }

    /// Reads objects at random index paths of `snapshot` (the complete results of the first
    /// page's snapshot) through the controller, still showing its first page: each is the
    /// row there, or, read after its deletion, says so. Also the first and last rows of the
    /// section `beingRead` by the held background read and of a random one, where an offset
    /// off by one shows, and the index paths just past them and past the last section.
    private func expectSnapshotRows(
        of controller: FetchedResultsController<Note>, at snapshot: SectionedSnapshot<ObjectID>,
        paths: [IndexPath], beingRead: Int, _ random: inout SeededGenerator, _ context: String
    ) throws {
        #expect(!controller.isComplete, "\(context): still the first page")
        let sections = [beingRead, snapshot.sections.indices.randomElement(using: &random) ?? 0]
        let edges = sections.flatMap { [IndexPath(row: 0, section: $0), IndexPath(row: snapshot.sections[$0].ids.count - 1, section: $0)] }
        for path in (0..<10).compactMap({ _ in paths.randomElement(using: &random) }) + edges {
            let expected = snapshot.sections[path.section].ids[path.row]
            expectRow(expected, "\(context): \(path)") { () throws(FetchedResultsError) in try controller.object(at: path) }
        }
        let ends =
            sections.map { IndexPath(row: snapshot.sections[$0].ids.count, section: $0) } + [
                IndexPath(row: 0, section: snapshot.sections.count)
            ]
        for end in ends {
            #expect(throws: FetchedResultsError.indexPathOutOfBounds(end), "\(context)") { try controller.object(at: end) }
        }
    }

    /// `read` gives the object `expected`, or says it was deleted since the snapshot.
    private func expectRow(_ expected: ObjectID, _ context: String, _ read: () throws(FetchedResultsError) -> Note) {
        do {
            #expect(try read().id == expected.rowID, "\(context)")
        } catch .objectDeleted(let id) {
            #expect(id == expected, "\(context)")
        } catch {
            Issue.record("\(context): \(error)")
        }
    }

    /// Commits `statements` in one transaction, blocking the main actor meanwhile.
    private func commitBlocking(_ statements: [RandomStatement], in store: Store) throws {
        try store.write { db in
            for statement in statements { try statement.execute(db) }
        }
    }

    /// `rows` notes: titles of mixed case with many ties, a few groups of mixed case and NULL,
    /// scores with ties and NULL.
    nonisolated private static func fill(_ store: Store, rows: Int, multiplier: Int, modulus: Int) throws {
        try store.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                    INSERT INTO note(title, grp, score)
                    SELECT char(65 + (i * 7) % 3 + 32 * (i % 2)) || (i * ?) % 97,
                        CASE i % 5 WHEN 0 THEN NULL ELSE char(97 + i % 4 - 32 * (i % 3 = 0)) END,
                        CASE WHEN i % 11 = 0 THEN NULL ELSE (i * ?) % ? END
                    FROM n
                    """,
                arguments: [rows, multiplier, multiplier, modulus])
        }
    }

    /// One transaction's statements: inserts, updates that move rows (score, group, title),
    /// deletes of single rows and short ranges, and an insert that fails on its primary key.
    private func randomStatements(rows: Int, _ random: inout SeededGenerator) -> [RandomStatement] {
        (0..<Int.random(in: 1...4, using: &random)).map { _ in
            let id = Int.random(in: 1...rows, using: &random)
            let score: Int? = Int.random(in: 0..<12, using: &random) == 0 ? nil : Int.random(in: 0..<1_000, using: &random)
            let group: String? = ["a", "b", "c", "d", "A", "C", nil].randomElement(using: &random) ?? nil
            let title = ["a", "A", "b", "B", "c", "C"].randomElement(using: &random).map { $0 + "\(id % 97)" } ?? "x"
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30:
                return RandomStatement(sql: "INSERT INTO note(title, grp, score) VALUES (?, ?, ?)", arguments: [title, group, score])
            case 30..<65:
                return RandomStatement(sql: "UPDATE note SET score = ?, grp = ? WHERE id = ?", arguments: [score, group, id])
            case 65..<75:
                return RandomStatement(sql: "UPDATE note SET title = ? WHERE id = ?", arguments: [title, id])
            case 75..<90:
                return RandomStatement(sql: "DELETE FROM note WHERE id = ?", arguments: [id])
            case 90..<95:
                return RandomStatement(sql: "DELETE FROM note WHERE id BETWEEN ? AND ?", arguments: [id, id + 20])
            default:
                return RandomStatement(sql: "INSERT INTO note(id, title) VALUES (?, 'dup')", arguments: [min(id, 2)], mayFail: true)
            }
        }
    }
}
