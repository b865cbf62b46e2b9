import BenchmarkKit
import CSQLiteBench

/// The observe workloads with the C API: after each commit, re-run the query on a reader
/// connection and diff the results against the previous ones by id with a hash map.
public final class RawCLiveQuery: LiveQueryContender {
    /// Results are labelled `rawC`.
    public static let library = ContenderLibrary.rawC

    private let writer: RawCChangeWriter
    private let reader: SQLiteConnection
    private let queryStatement: PreparedStatement
    private var itemsByID: [Int64: Item] = [:]

    /// Opens a writer and a reader, prepares the query and fetches the initial results.
    public init(databasePath: String) throws {
        writer = try RawCChangeWriter(databasePath: databasePath)
        reader = try SQLiteConnection(path: databasePath)
        queryStatement = try reader.prepare(ItemSQL.flaggedByScore)
        itemsByID = try indexByID(queryStatement.readAllItems())
    }

    /// Writes `change` in one transaction, re-runs the query and diffs by id.
    public func commit(_ change: ItemChange) async throws -> ChangeSummary {
        try writer.write(change)
        return try diffAgainstLatestResults()
    }

    /// Rows absent before are insertions, rows whose values differ are updates (a new score is
    /// a move), and the rest of the old rows that are missing now are removals.
    private func diffAgainstLatestResults() throws -> ChangeSummary {
        let latest = try queryStatement.readAllItems()
        var summary = ChangeSummary(insertions: 0, removals: 0, updates: 0)
        for item in latest {
            guard let id = item.id, let previous = itemsByID[id] else {
                summary.insertions += 1
                continue
            }
            if previous != item {
                summary.updates += 1
            }
        }
        summary.removals = itemsByID.count - (latest.count - summary.insertions)
        itemsByID = indexByID(latest)
        return summary
    }

    private func indexByID(_ items: [Item]) -> [Int64: Item] {
        var index: [Int64: Item] = [:]
        index.reserveCapacity(items.count)
        for item in items {
            if let id = item.id {
                index[id] = item
            }
        }
        return index
    }
}
