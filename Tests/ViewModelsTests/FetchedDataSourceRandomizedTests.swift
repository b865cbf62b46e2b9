import Foundation
import SQLiteStoreCore
import SQLiteStoreResults
import SQLiteStoreViewModels
import Testing

/// A list view on a fetched data source, driven by seeded random transactions from another
/// task, must show exactly what SQLite returns after every one of them.
@MainActor
@Suite("Fetched data source, randomized")
struct FetchedDataSourceRandomizedTests {
    private static let rooms = ["attic", "bath", "hall", "kitchen", "study"]

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aListViewEqualsAFreshFetchAfterEveryTransaction() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(schema: Chore.schema)
        var random = SeededGenerator()
        let seed = random.seed
        let factory = ChoreCellFactory()
        let chores = factory.dataSource(store: store)
        try chores.performFetch()
        let list = InMemoryListView(dataSource: chores)
        var failed = false
        for step in 0..<200 {
            let sql = Self.randomTransaction(step: step, using: &random)
            try await Task.detached { try store.write { db in try db.execute(script: sql) } }.value
            let expected = try store.choreLinesByRoom()
            await waitUntil("step \(step) of seed \(seed) shows \(expected)") { list.lines(describing: \.line) == expected }
            if list.lines(describing: \.line) != expected || !list.errors.isEmpty {
                Issue.record("seed \(seed), step \(step) (\(sql)): list \(list.lines(describing: \.line)), errors \(list.errors)")
                failed = true
                break
            }
        }
        #expect(failed || list.reloadCount == 1, "seed \(seed): every change came as a batch update")
        #expect(failed || factory.made < list.appliedChangeSets.count * 4 + 40, "seed \(seed): the cache was rebuilt")
    }

    /// One to three statements: inserts, title updates, moves within and across rooms, deletes.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private static func randomTransaction(step: Int, using random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 1...3, using: &random)).map { index in
            let room = rooms.randomElement(using: &random) ?? "hall"
            let rank = Int.random(in: 0..<20, using: &random)
            let target = "(SELECT id FROM chore ORDER BY random_order(id) LIMIT 1)"
                .replacingOccurrences(of: "random_order(id)", with: "(id * \(Int.random(in: 1..<1_000, using: &random))) % 997")
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4: return "INSERT INTO chore (title, room, rank) VALUES ('c\(step).\(index)', '\(room)', \(rank));"
            case 4..<6: return "UPDATE chore SET title = 't\(step).\(index)' WHERE id = \(target);"
            case 6..<8: return "UPDATE chore SET room = '\(room)', rank = \(rank) WHERE id = \(target);"
            default: return "DELETE FROM chore WHERE id = \(target);"
            }
        }.joined(separator: "\n")
    }
}
