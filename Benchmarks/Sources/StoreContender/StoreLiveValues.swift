import BenchmarkKit
import SQLiteStoreCore
import SQLiteStoreResults

/// The observe workloads with SQLiteStore's `LiveValues`, the peer of GRDB's `ValueObservation`:
/// every value of `flag = 1 ORDER BY score` in the consumer's hands after each change, off the
/// main actor, with the change set.
public final class StoreLiveValues: LiveQueryContender {
    /// Results are labelled `SQLiteStoreValues`.
    public static let library = ContenderLibrary.sqliteStoreValues

    private let store: Store
    private var values: LiveValues<Item>.Iterator

    /// Opens a `Store` and waits for the first values.
    public init(databasePath: String) async throws {
        store = try StoreDatabase.open(atPath: databasePath)
        values = LiveValues(ItemRequests.flaggedByScore, in: store).makeAsyncIterator()
        guard try await values.next() != nil else { throw ValuesEndedError() }
    }

    /// Writes `change` in one `write`, then waits for the next values.
    public func commit(_ change: ItemChange) async throws -> ChangeSummary {
        try await store.write { db in try db.apply(change) }
        guard let changeSet = try await values.next()?.changeSet else { throw ValuesEndedError() }
        return ChangeSummary(
            insertions: changeSet.inserts.count, removals: changeSet.deletes.count,
            updates: changeSet.updates.count + changeSet.moves.count)
    }
}

/// The values' sequence ended although the live query was still in use.
private struct ValuesEndedError: Error, CustomStringConvertible {
    var description: String { "the LiveValues sequence ended" }
}
