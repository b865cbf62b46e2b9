import BenchmarkKit
import GRDB

/// The observe workloads with GRDB, as its users write them: a `ValueObservation` of
/// `fetchAll`, consumed as an async sequence, and `difference(from:)` on the ids.
///
/// `difference(from:)` costs O((n + m) · d) for d changed positions, which is why the
/// consumer does not diff the initial value against an empty list (that is quadratic).
public final class GRDBLiveQuery: LiveQueryContender {
    /// Results are labelled `GRDB`.
    public static let library = ContenderLibrary.grdb

    private let pool: DatabasePool
    private var results: AsyncValueObservation<[Item]>.Iterator
    private var ids: [Int64]

    /// Opens a `DatabasePool`, starts the observation and waits for its initial value.
    public init(databasePath: String) async throws {
        pool = try GRDBDatabase.openPool(atPath: databasePath)
        let observation = ValueObservation.tracking { db in
            try Item.filter(ItemColumn.flag == true).order(ItemColumn.score).fetchAll(db)
        }
        results = observation.values(in: pool).makeAsyncIterator()
        ids = try await Self.ids(of: results.next())
    }

    /// Writes `change` in one `write`, then diffs the ids of each observed value against the
    /// previous ones until a value differs.
    ///
    /// Values that change nothing are the observation's documented stutter: without
    /// `SQLITE_ENABLE_SNAPSHOT` (GRDB disables it on Linux) a `DatabasePool` observation
    /// notifies its initial value twice. Like a list view applying an empty difference, the
    /// consumer lets them pass; every scripted change alters the ids' order.
    public func commit(_ change: ItemChange) async throws -> ChangeSummary {
        try await pool.write { db in try Self.apply(change, in: db) }
        while true {
            let latestIDs = try await Self.ids(of: results.next())
            let difference = latestIDs.difference(from: ids)
            ids = latestIDs
            if !difference.isEmpty {
                return ChangeSummary(
                    insertions: difference.insertions.count, removals: difference.removals.count, updates: 0)
            }
        }
    }

    private static func apply(_ change: ItemChange, in db: Database) throws {
        switch change {
        case .update(let updates):
            for update in updates {
                try Item.filter(key: update.id).updateAll(
                    db, ItemColumn.score.set(to: update.score), ItemColumn.flag.set(to: update.flag))
            }
        case .insert(let item):
            var item = item
            try item.insert(db)
        case .delete(let id):
            try Item.deleteOne(db, key: id)
        }
    }

    private static func ids(of items: [Item]?) throws -> [Int64] {
        guard let items else { throw ObservationEndedError() }
        return items.compactMap(\.id)
    }
}

/// The observation's sequence ended although the live query was still in use.
private struct ObservationEndedError: Error, CustomStringConvertible {
    var description: String { "the GRDB observation ended" }
}
