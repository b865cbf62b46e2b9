import FetchedResults
import Store

/// The results of a watched query at one moment: the rowids in their sections, and the
/// shown values of each row.
struct WatchResults: Sendable {
    /// The rowids, grouped in sections (one unnamed section without `--section-by`).
    let snapshot: SectionedSnapshot<Int64>
    /// The shown column values of each row, by rowid.
    let values: [Int64: [DatabaseValue]]

    /// Runs the query.
    static func fetch(_ query: WatchQuery, in db: Database) throws -> WatchResults {
        var sections: [SectionedSnapshot<Int64>.Section] = query.sectionColumn == nil ? [.init(ids: [])] : []
        var sectionValue: DatabaseValue?
        var values: [Int64: [DatabaseValue]] = [:]
        var cursor = try db.cursor(sql: query.selectSQL)
        while let row = try cursor.next() {
            guard case .integer(let rowID) = row[0] else { continue }
            if query.sectionColumn != nil, sections.isEmpty || row[1] != sectionValue {
                sectionValue = row[1]
                sections.append(.init(name: row[1].sectionName, ids: []))
            }
            sections[sections.count - 1].ids.append(rowID)
            values[rowID] = Array(row.values[query.firstShownColumn...])
        }
        return WatchResults(snapshot: SectionedSnapshot(sections: sections), values: values)
    }

    /// The number of rows.
    var rowCount: Int { values.count }

    /// The step from these results to `next`: rows are matched by rowid, and a row whose
    /// shown values differ counts as updated.
    func changeSet(to next: WatchResults) -> ChangeSet {
        let updated = Set(next.values.compactMap { rowID, newValues in
            values[rowID].map { $0 == newValues ? nil : rowID } ?? nil
        })
        return ChangeSet(from: snapshot, to: next.snapshot, updated: updated)
    }
}
