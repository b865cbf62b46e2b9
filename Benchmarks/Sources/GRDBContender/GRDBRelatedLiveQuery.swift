import BenchmarkKit
import GRDB

/// `observeRelated` with GRDB: a `ValueObservation` of the join (each item's id and its list's
/// name, in order), consumed as an async sequence; the consumer compares each value with the
/// previous one through a dictionary (`difference(from:)` would take seconds over a million ids).
public final class GRDBRelatedLiveQuery: RelatedLiveQueryContender {
    /// Results are labelled `GRDB`.
    public static let library = ContenderLibrary.grdb

    private let pool: DatabasePool
    private var results: AsyncValueObservation<[ItemInList]>.Iterator
    private var names: [Int64: String] = [:]

    /// Opens a `DatabasePool`, starts the observation and waits for its initial value.
    public init(databasePath: String) async throws {
        pool = try GRDBDatabase.openPool(atPath: databasePath)
        let observation = ValueObservation.tracking { db in try ItemInList.fetchAll(db, sql: RelatedSQL.itemsByListName) }
        results = observation.values(in: pool).makeAsyncIterator()
        names = try await Self.names(of: results.next())
    }

    /// Renames the list in one `write`, then compares each observed value with the previous
    /// one until a value differs (a `DatabasePool` observation may repeat its initial value).
    public func commit(_ rename: ListRename) async throws -> ChangeSummary {
        try await pool.write { db in try db.execute(sql: RelatedSQL.renameList, arguments: [rename.name, rename.listID]) }
        while true {
            let latest = try await Self.names(of: results.next())
            let summary = RelatedSQL.summary(from: names, to: latest)
            names = latest
            if !summary.isEmpty { return summary }
        }
    }

    private static func names(of rows: [ItemInList]?) throws -> [Int64: String] {
        guard let rows else { throw RelatedObservationEndedError() }
        var names: [Int64: String] = [:]
        names.reserveCapacity(rows.count)
        for row in rows { names[row.id] = row.name }
        return names
    }
}

/// One row of the join: an item's id and its list's name.
struct ItemInList: FetchableRecord, Decodable, Sendable {
    let id: Int64
    let name: String
}

/// The observation's sequence ended although the live query was still in use.
private struct RelatedObservationEndedError: Error, CustomStringConvertible {
    var description: String { "the GRDB observation ended" }
}
