import Foundation

/// A change set checked against the old results: where each old section goes,
/// which old rows leave, and what lands where in the new sections. Building
/// one validates every index of the change set for its role. No hashing:
/// rows are kept in sorted lists per section, so applying is linear apart
/// from sorting the changes.
struct ChangeSetLayout {
    /// A row the new results gain in a surviving section.
    enum Arrival {
        case inserted
        case moved(fromSection: Int, fromRow: Int)

        /// The role of the change that brings the row.
        var role: ChangeSetError.Role {
            switch self {
            case .inserted: .insert
            case .moved: .moveDestination
            }
        }
    }

    /// For each old section, its new index, or `nil` when it is deleted.
    let newSectionOfOld: [Int?]
    /// For each new section, the old section it continues, or `nil` when it is inserted.
    let oldSectionOfNew: [Int?]
    /// For each old section, the rows that leave it (deleted or moved away), ascending.
    let departures: [[Int]]
    /// For each new section, the rows that arrive, ascending by new row.
    let arrivals: [[(row: Int, arrival: Arrival)]]

    init(_ changeSet: ChangeSet, oldRowCounts: [Int]) throws(ChangeSetError) {
        (newSectionOfOld, oldSectionOfNew) = try Self.matchSections(changeSet, oldSectionCount: oldRowCounts.count)
        departures = try Self.departures(of: changeSet, oldRowCounts: oldRowCounts, newSectionOfOld: newSectionOfOld)
        try Self.checkUpdates(
            of: changeSet, oldRowCounts: oldRowCounts, newSectionOfOld: newSectionOfOld,
            departures: departures)
        arrivals = try Self.arrivals(of: changeSet, oldSectionOfNew: oldSectionOfNew)
    }

    /// The number of sections of the new results.
    static func newSectionCount(of changeSet: ChangeSet, oldSectionCount: Int) -> Int {
        oldSectionCount - changeSet.sectionDeletes.count + changeSet.sectionInserts.count
    }

    private static func matchSections(
        _ changeSet: ChangeSet, oldSectionCount: Int
    ) throws(ChangeSetError) -> ([Int?], [Int?]) {
        let newSectionCount = newSectionCount(of: changeSet, oldSectionCount: oldSectionCount)
        var newSectionOfOld = [Int?](repeating: 0, count: oldSectionCount)
        var oldSectionOfNew = [Int?](repeating: 0, count: newSectionCount)
        try markDistinct(changeSet.sectionDeletes, in: &newSectionOfOld, role: .sectionDelete)
        try markDistinct(changeSet.sectionInserts, in: &oldSectionOfNew, role: .sectionInsert)
        let survivingOld = newSectionOfOld.indices.filter { newSectionOfOld[$0] != nil }
        let survivingNew = oldSectionOfNew.indices.filter { oldSectionOfNew[$0] != nil }
        for (old, new) in zip(survivingOld, survivingNew) {
            newSectionOfOld[old] = new
            oldSectionOfNew[new] = old
        }
        return (newSectionOfOld, oldSectionOfNew)
    }

    /// Sets `sections[index]` to `nil` for each index, checking it is in bounds and listed once.
    private static func markDistinct(
        _ indexes: [Int], in sections: inout [Int?], role: ChangeSetError.Role
    ) throws(ChangeSetError) {
        for index in indexes {
            guard sections.indices.contains(index), sections[index] != nil else { throw .invalidSection(index, role) }
            sections[index] = nil
        }
    }

    /// Whether `path` is a row of a surviving old section.
    private static func isSurvivingOldRow(_ path: IndexPath, oldRowCounts: [Int], newSectionOfOld: [Int?]) -> Bool {
        path.count == 2 && oldRowCounts.indices.contains(path.section) && newSectionOfOld[path.section] != nil
            && (0..<oldRowCounts[path.section]).contains(path.row)
    }

    private static func departures(
        of changeSet: ChangeSet, oldRowCounts: [Int], newSectionOfOld: [Int?]
    ) throws(ChangeSetError) -> [[Int]] {
        var leaving = [[(row: Int, role: ChangeSetError.Role)]](repeating: [], count: oldRowCounts.count)
        func leave(_ path: IndexPath, _ role: ChangeSetError.Role) throws(ChangeSetError) {
            guard isSurvivingOldRow(path, oldRowCounts: oldRowCounts, newSectionOfOld: newSectionOfOld)
            else { throw .invalidIndexPath(path, role) }
            leaving[path.section].append((path.row, role))
        }
        for path in changeSet.deletes { try leave(path, .delete) }
        for move in changeSet.moves { try leave(move.from, .moveSource) }
        var departures: [[Int]] = []
        departures.reserveCapacity(leaving.count)
        for (section, rows) in leaving.enumerated() {
            departures.append(try sortedDistinct(rows, section: section, row: \.row, role: \.role).map(\.row))
        }
        return departures
    }

    /// The changes to one section sorted by row (stably, so a repeated row
    /// reports its later change), checking that no row is listed twice.
    private static func sortedDistinct<Change>(
        _ changes: [Change], section: Int, row: (Change) -> Int, role: (Change) -> ChangeSetError.Role
    ) throws(ChangeSetError) -> [Change] {
        let sorted = changes.sorted { row($0) < row($1) }
        for (earlier, later) in zip(sorted, sorted.dropFirst()) where row(earlier) == row(later) {
            throw .invalidIndexPath(IndexPath(row: row(later), section: section), role(later))
        }
        return sorted
    }

    private static func checkUpdates(
        of changeSet: ChangeSet, oldRowCounts: [Int], newSectionOfOld: [Int?], departures: [[Int]]
    ) throws(ChangeSetError) {
        for (index, path) in changeSet.updates.enumerated() {
            guard isSurvivingOldRow(path, oldRowCounts: oldRowCounts, newSectionOfOld: newSectionOfOld),
                index == 0 || changeSet.updates[index - 1] != path,
                !departures[path.section].containsSorted(path.row)
            else { throw .invalidIndexPath(path, .update) }
        }
    }

    private static func arrivals(
        of changeSet: ChangeSet, oldSectionOfNew: [Int?]
    ) throws(ChangeSetError) -> [[(row: Int, arrival: Arrival)]] {
        var arrivals = [[(row: Int, arrival: Arrival)]](repeating: [], count: oldSectionOfNew.count)
        func arrive(_ path: IndexPath, _ arrival: Arrival) throws(ChangeSetError) {
            guard path.count == 2, oldSectionOfNew.indices.contains(path.section),
                oldSectionOfNew[path.section] != nil, path.row >= 0
            else { throw .invalidIndexPath(path, arrival.role) }
            arrivals[path.section].append((path.row, arrival))
        }
        for path in changeSet.inserts { try arrive(path, .inserted) }
        for move in changeSet.moves { try arrive(move.to, .moved(fromSection: move.from.section, fromRow: move.from.row)) }
        for section in arrivals.indices {
            arrivals[section] = try sortedDistinct(arrivals[section], section: section, row: \.row, role: \.arrival.role)
        }
        return arrivals
    }
}
