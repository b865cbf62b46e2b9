import BenchmarkKit
import GRDB

/// The first-screen workloads with GRDB, as its users write them: a `ValueObservation` of
/// `fetchAll`, whose first value holds every row.
public final class GRDBFirstScreen: FirstScreenContender, Sendable {
    /// Results are labelled `GRDB`.
    public static let library = ContenderLibrary.grdb

    private let pool: DatabasePool

    /// Opens a `DatabasePool`.
    public init(databasePath: String) throws {
        pool = try GRDBDatabase.openPool(atPath: databasePath)
    }

    /// Starts the observation and takes the first `count` items of its initial value.
    public func firstScreen(count: Int, order: FirstScreenOrder) async throws -> [Item] {
        Array(try await initialValue(order: order).prefix(count))
    }

    /// Starts the observation and counts the items of its initial value.
    public func completeResults() async throws -> Int {
        try await initialValue(order: .score).count
    }

    private func initialValue(order: FirstScreenOrder) async throws -> [Item] {
        let flagged = Item.filter(ItemColumn.flag == true)
        let request =
            switch order {
            case .score: flagged.order(ItemColumn.score)
            case .sectioned: flagged.order(ItemColumn.category, ItemColumn.score)
            case .unindexed: flagged.order(ItemColumn.title)
            }
        let observation = ValueObservation.tracking { db in try request.fetchAll(db) }
        var values = observation.values(in: pool).makeAsyncIterator()
        guard let value = try await values.next() else { return [] }
        return value
    }
}
