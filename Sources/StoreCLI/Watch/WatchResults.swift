import SQLiteStoreCore
import SQLiteStoreResults

/// The results of a watched query at one moment: the rowids in their sections, and the
/// shown values of each row.
struct WatchResults: Sendable {
    /// The rowids, grouped in sections (one unnamed section without `--section-by`).
    let snapshot: SectionedSnapshot<Int64>
    /// The shown column values of each row, by rowid.
    let values: [Int64: [DatabaseValue]]

    /// The number of rows.
    var rowCount: Int { snapshot.rowCount }

    /// A controller's results, with the shown values of every row read now.
    static func reading(_ results: FetchedResultsSnapshot, of query: WatchQuery, from store: Store) async throws -> WatchResults {
        let snapshot = rowIDs(of: results)
        return WatchResults(snapshot: snapshot, values: try await values(of: Set(snapshot.sections.flatMap(\.ids)), query, store))
    }

    /// The results after a change the controller delivered, and its change set narrowed to
    /// what the shown values say.
    ///
    /// Only the rows the change set names are read: inserted ones (those of inserted sections
    /// included), moved ones and updated ones. The controller lists as updated every row that
    /// may have changed (after a commit of another process, every row that stayed in place);
    /// here a row counts as updated, and a move as changed, only when its shown values differ.
    /// Identities and positions are the controller's, untouched.
    func applying(_ change: FetchedResultsChange, of query: WatchQuery, from store: Store) async throws -> (WatchResults, ChangeSet) {
        let next = Self.rowIDs(of: change.results)
        let changeSet = change.changeSet
        let touched =
            WatchJSONLine.insertedRows(changeSet, new: next).map(\.1)
            + changeSet.moves.compactMap { next.id(at: $0.to) }
            + changeSet.updates.compactMap { snapshot.id(at: $0) }
        let fresh = try await Self.values(of: Set(touched), query, store)
        var newValues: [Int64: [DatabaseValue]] = [:]
        newValues.reserveCapacity(next.rowCount)
        for section in next.sections {
            for id in section.ids { newValues[id] = fresh[id] ?? values[id] }
        }
        func changed(_ id: Int64?) -> Bool { id.map { fresh[$0] != nil && fresh[$0] != values[$0] } ?? false }
        let narrowed = ChangeSet(
            sectionDeletes: changeSet.sectionDeletes, sectionInserts: changeSet.sectionInserts,
            deletes: changeSet.deletes, inserts: changeSet.inserts,
            moves: changeSet.moves.map { .init(from: $0.from, to: $0.to, isChanged: changed(next.id(at: $0.to))) },
            updates: changeSet.updates.filter { changed(snapshot.id(at: $0)) })
        return (WatchResults(snapshot: next, values: newValues), narrowed)
    }

    /// The rowids of a controller's results, in their sections: O(n).
    private static func rowIDs(of results: FetchedResultsSnapshot) -> SectionedSnapshot<Int64> {
        SectionedSnapshot(sections: results.sectionedSnapshot().sections.map { .init(name: $0.name, ids: $0.ids.map(\.rowID)) })
    }

    /// The shown values of the rows `ids` that exist now, by rowid.
    private static func values(of ids: Set<Int64>, _ query: WatchQuery, _ store: Store) async throws -> [Int64: [DatabaseValue]] {
        guard !ids.isEmpty else { return [:] }
        return try await store.read { db in
            var values: [Int64: [DatabaseValue]] = [:]
            try db.forEachRow(in: query.table, columns: query.valueColumnsSQL(rowID: try db.rowIDName(of: query.table)), rowIDs: ids) {
                statement in
                guard case .integer(let rowID) = statement.value(at: 0) else { return }
                values[rowID] = (0..<query.columns.count).map { statement.value(at: $0 + 1) }
            }
            return values
        }
    }
}
