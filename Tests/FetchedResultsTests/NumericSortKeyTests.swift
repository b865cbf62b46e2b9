import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// Controllers ordered by one numeric column keep that key unboxed in their index; rows
/// whose key switches between REAL, INTEGER, NULL and TEXT must still land where SQLite puts them.
@MainActor @Suite(.timeLimit(.minutes(10))) struct NumericSortKeyTests {
    /// Only the identity matters here; `value` is read by the controller as a sort key.
    struct Reading: StoreModel, Equatable {
        static let tableName = "reading"
        var id: Int64?
    }

    static let requests: [StoreRequest<Reading>] = [
        StoreRequest<Reading>().order(Column("value").ascending),
        StoreRequest<Reading>().order(Column("value").descending).batchSize(5),
        StoreRequest<Reading>().filter(Column("value") > 2).order(Column("value").ascending),
    ]

    @Test func keysOfEveryStorageClassReplayIntoFreshFetches() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(schema: "CREATE TABLE reading(id INTEGER PRIMARY KEY, value);")
        var random = SeededGenerator()
        let seed = random.seed
        let controllers = Self.requests.map { FetchedResultsController(store: store, request: $0) }
        var previous: [SectionedSnapshot<ObjectID>] = []
        var delivered = Array(repeating: [FetchedResultsChange](), count: controllers.count)
        for (number, controller) in controllers.enumerated() {
            try controller.performFetch()
            controller.didChange = { delivered[number].append($0) }
            previous.append(controller.results.sectionedSnapshot())
        }
        for step in 0..<600 {
            let value = Self.randomValue(&random)
            let target = Int64.random(in: 1...40, using: &random)
            let (sql, arguments): (String, [any DatabaseValueConvertible]) =
                switch Int.random(in: 0..<3, using: &random) {
                case 0: ("INSERT INTO reading(value) VALUES (?)", [value])
                case 1: ("UPDATE reading SET value = ? WHERE id = ?", [value, target])
                default: ("DELETE FROM reading WHERE id = ?", [target])
                }
            try await store.write { db in try db.execute(sql: sql, arguments: arguments) }
            for (number, controller) in controllers.enumerated() {
                await controller.waitForChanges()
                var replayed = previous[number]
                for change in delivered[number] {
                    replayed = try change.changeSet.applied(to: replayed, new: change.results.sectionedSnapshot())
                }
                delivered[number] = []
                let fresh = try store.freshSnapshot(controller.request)
                try #require(replayed == fresh, "seed \(seed) (STORE_TEST_SEED replays it), step \(step), controller \(number)")
                previous[number] = replayed
            }
        }
    }

    /// REAL (with and without a fraction, negative zero included), INTEGER, NULL or TEXT.
    private static func randomValue(_ random: inout SeededGenerator) -> DatabaseValue {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: .null
        case 1: .text("t\(Int.random(in: 0...3, using: &random))")
        case 2: .real(-0.0)
        case 3..<6: .real(Double(Int.random(in: -12...24, using: &random)) / 4)
        default: .integer(Int64.random(in: -3...6, using: &random))
        }
    }
}
