import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// Random transactions against several `LiveValues` consumed away from the main actor. Each
/// element's change set must replay the previous element's results into its own, every
/// object whose values changed must be reported (updated, moved as changed, inserted or
/// deleted), and once the writes are done the values must equal a fresh fetch. The consumers
/// take their elements after one to a few transactions, so that several merge into one.
///
/// The transactions are what SQLite sees: every conflict resolution against a unique index
/// (`OR ROLLBACK` ending the transaction), statements that fail and are caught, triggers
/// that change other rows, rollbacks, and commits by another connection.
///
/// `LV_SEED` replays a seed; `LV_TRANSACTIONS` sets the number of transactions (1,000).
@ChangesTestActor @Suite(.timeLimit(.minutes(15))) struct LiveValuesRandomizedTests {
    let directory: TemporaryDirectory
    let store: Store
    let other: Store

    static let schema =
        Note.schema + """
            CREATE UNIQUE INDEX note_title_grp ON note(title, grp);
            CREATE TRIGGER note_inserted_at_zero AFTER INSERT ON note WHEN NEW.score = 0 BEGIN
                UPDATE note SET score = 6 WHERE id = NEW.id;
            END;
            CREATE TRIGGER note_deleted AFTER DELETE ON note BEGIN
                UPDATE OR IGNORE note SET title = title || 't' WHERE id = OLD.id + 1 AND length(title) < 4;
            END;
            """

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Self.schema)
        other = try Store(path: directory.path("test.sqlite"))
    }

    static let requests: [StoreRequest<Note>] = [
        StoreRequest<Note>().order(Column("score").ascending),
        StoreRequest<Note>().filter(Column("score") >= 2 || Column("score").isNull)
            .order(Column("grp").descending, Column("title").ascending).sectioned(by: Column("grp")),
        StoreRequest<Note>().order(Column("title").ascending, Column("score").descending).limit(12, offset: 3),
        StoreRequest<Note>().filter(Column("grp") != "b").order(Column("title").descending).batchSize(4),
    ]

    @Test func everyElementReplaysAndReportsEveryChangedObject() async throws {
        let seed = ProcessInfo.processInfo.environment["LV_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        let transactions = ProcessInfo.processInfo.environment["LV_TRANSACTIONS"].flatMap { Int($0) } ?? 1_000
        print("LiveValuesRandomizedTests seed: \(seed) (replay with LV_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        var followers: [Follower] = []
        for request in Self.requests {
            var values = LiveValues(request, in: store).makeAsyncIterator()
            let first = try #require(try await values.next())
            followers.append(Follower(request: request, values: values, last: first))
        }
        for step in 0..<transactions {
            try await randomTransaction(&random)
            // A busy consumer: up to three transactions merge into one element.
            guard step == transactions - 1 || Int.random(in: 0..<3, using: &random) == 0 else { continue }
            for number in followers.indices {
                try await followers[number].catchUp(with: store, "seed \(seed), step \(step), request \(number)")
            }
        }
    }

    /// One consumer of `LiveValues` and the last element it took.
    struct Follower {
        let request: StoreRequest<Note>
        var values: LiveValues<Note>.Iterator
        var last: FetchedValuesChange<Note>

        /// Takes the elements of the transactions committed so far, checking each; the values
        /// are then those of a fresh fetch.
        mutating func catchUp(with store: Store, _ context: String) async throws {
            while let next = try await values.nextOfCommitted() {
                try check(next, after: last, context)
                last = next
            }
            let expected = try await store.read { [request] db in try db.fetch(request) }
            #expect(Array(last.values) == expected, "\(context): the values")
            #expect(last.values.results.sectionedSnapshot().isExactly(try store.freshSnapshot(request)), "\(context): the results")
        }

        private func check(_ next: FetchedValuesChange<Note>, after previous: FetchedValuesChange<Note>, _ context: String) throws {
            let old = previous.values.results.sectionedSnapshot()
            let new = next.values.results.sectionedSnapshot()
            #expect(try next.changeSet.applied(to: old, new: new) == new, "\(context): the change set replays")
            let reported = Self.reportedIDs(next.changeSet, old: previous.values.results, new: next.values.results)
            for note in next.values {
                guard let id = note.id.map(Note.id), let before = previous.values[id], before != note else { continue }
                #expect(reported.contains(id), "\(context): \(id) changed from \(before) to \(note) unreported")
            }
        }

        /// The objects a change set says changed: updated, moved as changed, inserted or deleted.
        private static func reportedIDs(_ changeSet: ChangeSet, old: FetchedResultsSnapshot, new: FetchedResultsSnapshot) -> Set<ObjectID> {
            let oldPaths = changeSet.updates + changeSet.deletes
            let newPaths = changeSet.inserts + changeSet.moves.filter(\.isChanged).map(\.to)
            let sectionRows =
                changeSet.sectionInserts.flatMap { section in
                    (0..<new.numberOfObjects(inSection: section)).compactMap { new.objectID(at: IndexPath(row: $0, section: section)) }
                }
            return Set(oldPaths.compactMap(old.objectID(at:)) + newPaths.compactMap(new.objectID(at:)) + sectionRows)
        }
    }

    private static let titles = ["t", "tt", "ttt", "tttt"]
    private static let groups: [String?] = ["a", "b", "c", nil]
    private static let resolutions = ["", " OR ABORT", " OR FAIL", " OR IGNORE", " OR REPLACE"]

    private func randomValues(_ random: inout SeededGenerator) -> [any DatabaseValueConvertible] {
        let group: DatabaseValue = Self.groups.randomElement(using: &random)?.map { .text($0) } ?? .null
        let score: DatabaseValue = Int.random(in: 0...9, using: &random) == 0 ? .null : .integer(Int64.random(in: 0...6, using: &random))
        return [Self.titles.randomElement(using: &random) ?? "t", group, score]
    }

    private func randomStatement(_ random: inout SeededGenerator) -> RandomStatement {
        let target = Int64.random(in: 1...40, using: &random)
        // ROLLBACK ends the whole transaction: rarer, so that most transactions commit.
        let rollsBack = Int.random(in: 0..<30, using: &random) == 0
        let or = rollsBack ? " OR ROLLBACK" : Self.resolutions.randomElement(using: &random) ?? ""
        let sql: String
        var arguments = randomValues(&random)
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<30: sql = "INSERT\(or) INTO note(title, grp, score) VALUES (?, ?, ?)"
        case 30..<40:
            sql = "INSERT\(or) INTO note(id, title, grp, score) VALUES (?, ?, ?, ?)"
            arguments.insert(target, at: 0)
        case 40..<48:
            sql = "INSERT INTO note(title, grp, score) VALUES (?, ?, ?) ON CONFLICT(title, grp) DO UPDATE SET score = excluded.score"
        case 48..<75:
            sql = "UPDATE\(or) note SET title = ?, grp = ?, score = ? WHERE id = ?"
            arguments.append(target)
        case 75..<88:
            sql = "DELETE FROM note WHERE id = ?"
            arguments = [target]
        default:
            sql = "UPDATE\(or) note SET score = score + 1 WHERE score < ?"
            arguments = [Int64.random(in: 0...6, using: &random)]
        }
        // Any statement may meet the unique index, directly or through a trigger.
        return RandomStatement(sql: sql, arguments: arguments, mayFail: true, mayRollBack: rollsBack)
    }

    private func randomTransaction(_ random: inout SeededGenerator) async throws {
        let statements = (0..<Int.random(in: 1...4, using: &random)).map { _ in randomStatement(&random) }
        try await RandomCommit.run(statements, store: store, other: other, &random)
    }
}
