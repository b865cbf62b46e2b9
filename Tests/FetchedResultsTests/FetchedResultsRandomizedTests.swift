import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// Random transactions against several controllers at once; after every transaction, each
/// controller's delivered change sets must replay its previous results into a fresh fetch.
/// (`CollationRandomizedTests` does the same over collations, Unicode and table switches.)
///
/// `FRC_SEED` replays a seed; `FRC_TRANSACTIONS` sets the number of transactions (3,000; the suite runs in parallel under a 10-minute limit).
@MainActor @Suite(.timeLimit(.minutes(15))) struct FetchedResultsRandomizedTests {
    let directory: TemporaryDirectory
    let store: Store
    let other: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Note.schema)
        other = try Store(path: directory.path("test.sqlite"))
    }

    static let requests: [StoreRequest<Note>] = [
        StoreRequest<Note>().order(Column("score").ascending).batchSize(7),
        StoreRequest<Note>().filter(Column("score") >= 3 || Column("score").isNull)
            .order(Column("grp").ascending, Column("score").descending).sectioned(by: Column("grp")),
        StoreRequest<Note>().order(Column("grp").descending).sectioned(by: Column("grp")).batchSize(3),
        StoreRequest<Note>().filter(SQLExpression(sql: "length(title) > ?", arguments: [2]))
            .order(Column("title").descending).batchSize(5),
        StoreRequest<Note>().order(Column("score").ascending, Column("title").ascending).limit(15, offset: 4),
        StoreRequest<Note>().filter(Column("grp") != "b"),
    ]

    @Test func changeSetsReplayIntoFreshFetches() async throws {
        let run = RandomizedRun("FetchedResultsRandomizedTests", transactionsFrom: "FRC_TRANSACTIONS", default: 3_000)
        let (seed, transactions) = (run.seed, run.transactions)
        var random = run.random
        var checkers: [ReplayChecker<Note>] = []
        for request in Self.requests {
            let controller = FetchedResultsController(store: store, request: request)
            try controller.performFetch()
            checkers.append(ReplayChecker(controller))
        }
        for step in 0..<transactions {
            try await randomTransaction(&random)
            for (number, checker) in checkers.enumerated() {
                guard try await checker.check(store, "seed \(seed), step \(step), controller \(number)") else { return }
                if step % 500 == 0 {
                    let controller = checker.controller
                    let expected = try await store.read { [request = controller.request] db in try db.fetch(request) }
                    #expect(try controller.fetchedObjects == expected, "seed \(seed), step \(step): objects")
                }
            }
        }
    }

    private static let groups: [String?] = ["a", "b", "c", "d", nil]

    private func randomValues(_ random: inout SeededGenerator) -> [any DatabaseValueConvertible] {
        let title = String(repeating: "t", count: Int.random(in: 1...4, using: &random))
        let group: DatabaseValue = Self.groups.randomElement(using: &random)?.map { .text($0) } ?? .null
        let score: DatabaseValue = Int.random(in: 0...9, using: &random) == 0 ? .null : .integer(Int64.random(in: 0...6, using: &random))
        return [title, group, score]
    }

    private func randomTransaction(_ random: inout SeededGenerator) async throws {
        let kind = Int.random(in: 0..<100, using: &random)
        let statements = (0..<Int.random(in: 1...3, using: &random)).map { _ in
            let target = Int64.random(in: 1...60, using: &random)
            return switch kind {
            case 0..<30: RandomStatement(sql: "INSERT INTO note(title, grp, score) VALUES (?, ?, ?)", arguments: randomValues(&random))
            case 30..<60:
                RandomStatement(
                    sql: "UPDATE note SET title = ?, grp = ?, score = ? WHERE id = ?", arguments: randomValues(&random) + [target])
            case 60..<70: RandomStatement(sql: "UPDATE note SET title = title || '' WHERE id = ?", arguments: [target])
            case 70..<85: RandomStatement(sql: "DELETE FROM note WHERE id = ?", arguments: [target])
            default:
                RandomStatement(
                    sql: "UPDATE note SET score = score + 1 WHERE score < ?", arguments: [Int64.random(in: 0...6, using: &random)])
            }
        }
        try await RandomCommit.run(statements, store: store, other: other, &random)
    }
}
