import BenchmarkKit
import GRDB

/// The first-screen workloads with GRDB, as its users write them: a `ValueObservation` of
/// `fetchAll`, whose first value holds every row.
public final class GRDBFirstScreen: FirstScreenContender {
    /// Results are labelled `GRDB`.
    public static let library = ContenderLibrary.grdb

    private let pool: DatabasePool

    /// Opens a `DatabasePool`.
    public init(databasePath: String) throws {
        pool = try GRDBDatabase.openPool(atPath: databasePath)
    }

    /// Starts the observation and takes the first `count` items of its initial value.
    public func firstScreen(count: Int, sectioned: Bool) async throws -> [Item] {
        Array(try await initialValue(sectioned: sectioned).prefix(count))
    }

    /// Starts the observation and counts the items of its initial value.
    public func completeResults() async throws -> Int {
        try await initialValue(sectioned: false).count
    }

    private func initialValue(sectioned: Bool) async throws -> [Item] {
        let observation = ValueObservation.tracking { db in
            let flagged = Item.filter(ItemColumn.flag == true)
            return try (sectioned ? flagged.order(ItemColumn.category, ItemColumn.score) : flagged.order(ItemColumn.score)).fetchAll(db)
        }
        var values = observation.values(in: pool).makeAsyncIterator()
        guard let value = try await values.next() else { return [] }
        return value
    }
}
