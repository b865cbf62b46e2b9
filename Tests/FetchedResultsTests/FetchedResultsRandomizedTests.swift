import Foundation
import SQLiteStoreCore
import Testing
@testable import SQLiteStoreResults

/// Random transactions against several controllers at once; after every transaction, each
/// controller's delivered change sets must replay its previous results into a fresh fetch.
///
/// `FRC_SEED` replays a seed; `FRC_TRANSACTIONS` sets the number of transactions (10,000).
@MainActor @Suite(.timeLimit(.minutes(10))) struct FetchedResultsRandomizedTests {
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
        let seed = ProcessInfo.processInfo.environment["FRC_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        let transactions = ProcessInfo.processInfo.environment["FRC_TRANSACTIONS"].flatMap { Int($0) } ?? 10_000
        print("FetchedResultsRandomizedTests seed: \(seed) (replay with FRC_SEED=\(seed))")
        var random = SplitMix64(seed: seed)
        let controllers = Self.requests.map { FetchedResultsController(store: store, request: $0) }
        var delivered = Array(repeating: [FetchedResultsChange](), count: controllers.count)
        var previous: [SectionedSnapshot<ObjectID>] = []
        for (number, controller) in controllers.enumerated() {
            try controller.performFetch()
            controller.didChange = { delivered[number].append($0) }
            previous.append(controller.results.sectionedSnapshot())
        }
        for step in 0..<transactions {
            try await randomTransaction(&random)
            for (number, controller) in controllers.enumerated() {
                await controller.waitForChanges()
                let fresh = try store.freshSnapshot(controller.request)
                var replayed = previous[number]
                for change in delivered[number] {
                    #expect(!change.changeSet.isEmpty, "seed \(seed), step \(step): empty change set delivered")
                    let new = change.results.sectionedSnapshot()
                    do {
                        replayed = try change.changeSet.applied(to: replayed, new: new)
                    } catch {
                        Issue.record("seed \(seed), step \(step), controller \(number): \(error) in \(change.changeSet)")
                    }
                    #expect(replayed == new)
                }
                delivered[number] = []
                guard replayed == fresh else {
                    Issue.record("seed \(seed), step \(step), controller \(number): replayed \(replayed) != fresh \(fresh)")
                    return
                }
                previous[number] = replayed
                if step % 500 == 0 {
                    let expected = try await store.read { [request = controller.request] db in try db.fetch(request) }
                    #expect(try controller.fetchedObjects == expected, "seed \(seed), step \(step): objects")
                }
            }
        }
    }

    private static let groups: [String?] = ["a", "b", "c", "d", nil]

    private func randomValues(_ random: inout SplitMix64) -> [any DatabaseValueConvertible] {
        let title = String(repeating: "t", count: Int.random(in: 1...4, using: &random))
        let group: DatabaseValue = Self.groups.randomElement(using: &random)?.map { .text($0) } ?? .null
        let score: DatabaseValue = Int.random(in: 0...9, using: &random) == 0 ? .null : .integer(Int64.random(in: 0...6, using: &random))
        return [title, group, score]
    }

    private func randomTransaction(_ random: inout SplitMix64) async throws {
        let kind = Int.random(in: 0..<100, using: &random)
        var statements: [(String, [any DatabaseValueConvertible])] = []
        let count = Int.random(in: 1...3, using: &random)
        for _ in 0..<count {
            let target = Int64.random(in: 1...60, using: &random)
            switch kind {
            case 0..<30: statements.append(("INSERT INTO note(title, grp, score) VALUES (?, ?, ?)", randomValues(&random)))
            case 30..<60: statements.append(("UPDATE note SET title = ?, grp = ?, score = ? WHERE id = ?", randomValues(&random) + [target]))
            case 60..<70: statements.append(("UPDATE note SET title = title || '' WHERE id = ?", [target]))
            case 70..<85: statements.append(("DELETE FROM note WHERE id = ?", [target]))
            default: statements.append(("UPDATE note SET score = score + 1 WHERE score < ?", [Int64.random(in: 0...6, using: &random)]))
            }
        }
        let written = statements
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<8:
            struct Rollback: Error {}
            _ = try? await store.write { db in
                for (sql, arguments) in written { try db.execute(sql: sql, arguments: arguments) }
                throw Rollback()
            }
        case 8..<16:
            try await other.write { db in
                for (sql, arguments) in written { try db.execute(sql: sql, arguments: arguments) }
            }
            try store.checkForExternalChanges()
        default:
            try await store.write { db in
                for (sql, arguments) in written { try db.execute(sql: sql, arguments: arguments) }
            }
        }
    }
}
