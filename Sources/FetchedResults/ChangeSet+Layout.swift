import Foundation

/// A change set checked against the old results: where each old section goes,
/// which old rows leave, and what lands where in the new sections. Building
/// one validates every index of the change set for its role.
struct ChangeSetLayout {
    /// A row the new results gain in a surviving section.
    enum Arrival {
        case inserted
        case moved(from: IndexPath)

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
    /// For each old section, the rows that leave it (deleted or moved away).
    let departures: [Set<Int>]
    /// For each new section, the rows that arrive, by new row index.
    let arrivals: [[Int: Arrival]]

    init(_ changeSet: ChangeSet, oldRowCounts: [Int]) throws(ChangeSetError) {
        (newSectionOfOld, oldSectionOfNew) = try Self.matchSections(changeSet, oldSectionCount: oldRowCounts.count)
        departures = try Self.departures(of: changeSet, oldRowCounts: oldRowCounts, newSectionOfOld: newSectionOfOld)
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
        let deleted = try distinctSections(changeSet.sectionDeletes, below: oldSectionCount, role: .sectionDelete)
        let inserted = try distinctSections(changeSet.sectionInserts, below: newSectionCount, role: .sectionInsert)
        let survivingOld = (0..<oldSectionCount).filter { !deleted.contains($0) }
        let survivingNew = (0..<newSectionCount).filter { !inserted.contains($0) }
        var newSectionOfOld = [Int?](repeating: nil, count: oldSectionCount)
        var oldSectionOfNew = [Int?](repeating: nil, count: newSectionCount)
        for (old, new) in zip(survivingOld, survivingNew) {
            newSectionOfOld[old] = new
            oldSectionOfNew[new] = old
        }
        return (newSectionOfOld, oldSectionOfNew)
    }

    /// The indexes as a set, after checking each is in `0..<bound` and listed once.
    private static func distinctSections(
        _ indexes: [Int], below bound: Int, role: ChangeSetError.Role
    ) throws(ChangeSetError) -> Set<Int> {
        var distinct = Set<Int>()
        for index in indexes {
            guard (0..<bound).contains(index), distinct.insert(index).inserted else {
                throw .invalidSection(index, role)
            }
        }
        return distinct
    }

    private static func departures(
        of changeSet: ChangeSet, oldRowCounts: [Int], newSectionOfOld: [Int?]
    ) throws(ChangeSetError) -> [Set<Int>] {
        func checkedRow(_ path: IndexPath, _ role: ChangeSetError.Role) throws(ChangeSetError) -> Int {
            guard path.count == 2, oldRowCounts.indices.contains(path.section),
                  newSectionOfOld[path.section] != nil,
                  (0..<oldRowCounts[path.section]).contains(path.row)
            else { throw .invalidIndexPath(path, role) }
            return path.row
        }
        var departures = [Set<Int>](repeating: [], count: oldRowCounts.count)
        let leaving = changeSet.deletes.map { ($0, ChangeSetError.Role.delete) }
            + changeSet.moves.map { ($0.from, ChangeSetError.Role.moveSource) }
        for (path, role) in leaving {
            let row = try checkedRow(path, role)
            guard departures[path.section].insert(row).inserted else { throw .invalidIndexPath(path, role) }
        }
        var updated = Set<IndexPath>()
        for path in changeSet.updates {
            let row = try checkedRow(path, .update)
            guard !departures[path.section].contains(row), updated.insert(path).inserted
            else { throw .invalidIndexPath(path, .update) }
        }
        return departures
    }

    private static func arrivals(
        of changeSet: ChangeSet, oldSectionOfNew: [Int?]
    ) throws(ChangeSetError) -> [[Int: Arrival]] {
        var arrivals = [[Int: Arrival]](repeating: [:], count: oldSectionOfNew.count)
        let arriving = changeSet.inserts.map { ($0, Arrival.inserted, ChangeSetError.Role.insert) }
            + changeSet.moves.map { ($0.to, Arrival.moved(from: $0.from), ChangeSetError.Role.moveDestination) }
        for (path, arrival, role) in arriving {
            guard path.count == 2, oldSectionOfNew.indices.contains(path.section),
                  oldSectionOfNew[path.section] != nil, path.row >= 0,
                  arrivals[path.section].updateValue(arrival, forKey: path.row) == nil
            else { throw .invalidIndexPath(path, role) }
        }
        return arrivals
    }
}
