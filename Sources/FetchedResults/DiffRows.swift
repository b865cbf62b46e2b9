import Foundation

/// The row part of a diff: given how sections match, sorts every row into
/// delete, insert, move, update or unchanged, in O(n log n) with one hash map.
///
/// Rows are matched by ID. Only the first occurrence of a repeated ID (a
/// programmer error) is matched; its later occurrences are deleted from the
/// old results and inserted into the new ones.
struct DiffRows<ID: Hashable> {
    private struct Position {
        let section: Int
        let row: Int
        var indexPath: IndexPath { IndexPath(row: row, section: section) }
    }

    private let sections: DiffSectionMatch
    private let updated: Set<ID>
    private var deletes: [IndexPath] = []
    private var inserts: [IndexPath] = []
    private var moves: [ChangeSet.Move] = []
    private var updates: [IndexPath] = []

    /// Diffs the rows of `old` against `new`; `updated` holds the IDs whose values changed.
    static func changeSet(
        old: [[ID]], new: [[ID]], sections: DiffSectionMatch, updated: Set<ID>
    ) -> ChangeSet {
        var diff = DiffRows(sections: sections, updated: updated)
        var unmatched = diff.positionsOfFirstOccurrences(in: new)
        for (section, ids) in old.enumerated() {
            diff.sortOldSection(section, ids: ids, unmatched: &unmatched)
        }
        for position in unmatched.values where sections.oldOfNew[position.section] != nil {
            diff.inserts.append(position.indexPath)
        }
        return ChangeSet(
            sectionDeletes: sections.newOfOld.indices.filter { sections.newOfOld[$0] == nil },
            sectionInserts: sections.oldOfNew.indices.filter { sections.oldOfNew[$0] == nil },
            deletes: diff.deletes, inserts: diff.inserts, moves: diff.moves, updates: diff.updates
        )
    }

    private init(sections: DiffSectionMatch, updated: Set<ID>) {
        self.sections = sections
        self.updated = updated
    }

    /// Maps each ID to its first new position; later occurrences are inserts.
    private mutating func positionsOfFirstOccurrences(in new: [[ID]]) -> [ID: Position] {
        var positions: [ID: Position] = [:]
        positions.reserveCapacity(new.reduce(0) { $0 + $1.count })
        for (section, ids) in new.enumerated() {
            let survives = sections.oldOfNew[section] != nil
            for (row, id) in ids.enumerated() {
                let position = Position(section: section, row: row)
                if let first = positions.updateValue(position, forKey: id) {
                    positions[id] = first
                    if survives { inserts.append(position.indexPath) }
                }
            }
        }
        return positions
    }

    /// Sorts the rows of one old section, removing the matched ones from `unmatched`.
    private mutating func sortOldSection(_ section: Int, ids: [ID], unmatched: inout [ID: Position]) {
        let target = sections.newOfOld[section]
        var stayers: [(row: Int, newRow: Int)] = []
        for (row, id) in ids.enumerated() {
            let from = IndexPath(row: row, section: section)
            guard let to = unmatched.removeValue(forKey: id) else {
                if target != nil { deletes.append(from) }
                continue
            }
            switch (target, sections.oldOfNew[to.section] != nil) {
            case (nil, false): continue
            case (nil, true): inserts.append(to.indexPath)
            case (_?, false): deletes.append(from)
            case let (target?, true) where target == to.section: stayers.append((row, to.row))
            case (_?, true): moves.append(.init(from: from, to: to.indexPath, isChanged: updated.contains(id)))
            }
        }
        guard let target else { return }
        let inPlace = longestIncreasingSubsequence(stayers.map(\.newRow))
        for (stayer, inPlace) in zip(stayers, inPlace) {
            let isChanged = updated.contains(ids[stayer.row])
            let from = IndexPath(row: stayer.row, section: section)
            if !inPlace {
                moves.append(.init(from: from, to: IndexPath(row: stayer.newRow, section: target), isChanged: isChanged))
            } else if isChanged {
                updates.append(from)
            }
        }
    }
}
