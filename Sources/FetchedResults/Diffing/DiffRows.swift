import Foundation

/// The row part of a diff: given how sections and rows match, sorts every row
/// into delete, insert, move, update or unchanged. Linear apart from the
/// longest increasing subsequences, O(n log n) in all.
struct DiffRows {
    private let sections: DiffSectionMatch
    private let rows: DiffRowMatch
    /// For each new row in flat order, its section.
    private let newSectionOf: [Int]
    /// For each new section, the flat index of its first row.
    private let newSectionStart: [Int]
    private var deletes: [IndexPath] = []
    private var inserts: [IndexPath] = []
    private var moves: [ChangeSet.Move] = []
    private var updates: [IndexPath] = []

    /// The change set for old and new sections of the given row counts.
    static func changeSet(
        oldRowCounts: [Int], newRowCounts: [Int], sections: DiffSectionMatch, rows: DiffRowMatch
    ) -> ChangeSet {
        var diff = DiffRows(newRowCounts: newRowCounts, sections: sections, rows: rows)
        var oldIndex = 0
        for (section, count) in oldRowCounts.enumerated() {
            diff.sortOldSection(section, flatIndexes: oldIndex..<oldIndex + count)
            oldIndex += count
        }
        diff.addUnmatchedNewRows()
        return ChangeSet(
            sectionDeletes: sections.newOfOld.indices.filter { sections.newOfOld[$0] == nil },
            sectionInserts: sections.oldOfNew.indices.filter { sections.oldOfNew[$0] == nil },
            deletes: diff.deletes, inserts: diff.inserts, moves: diff.moves, updates: diff.updates
        )
    }

    private init(newRowCounts: [Int], sections: DiffSectionMatch, rows: DiffRowMatch) {
        self.sections = sections
        self.rows = rows
        var newSectionOf: [Int] = []
        newSectionOf.reserveCapacity(rows.isMatched.count)
        var newSectionStart: [Int] = []
        for (section, count) in newRowCounts.enumerated() {
            newSectionStart.append(newSectionOf.count)
            newSectionOf.append(contentsOf: repeatElement(section, count: count))
        }
        self.newSectionOf = newSectionOf
        self.newSectionStart = newSectionStart
    }

    private func newPath(_ flatIndex: Int) -> IndexPath {
        let section = newSectionOf[flatIndex]
        return IndexPath(row: flatIndex - newSectionStart[section], section: section)
    }

    /// Sorts the rows of one old section, given by their flat indexes.
    private mutating func sortOldSection(_ section: Int, flatIndexes: Range<Int>) {
        let target = sections.newOfOld[section]
        var stayers: [(row: Int, newIndex: Int)] = []
        for (row, oldIndex) in flatIndexes.enumerated() {
            let newIndex = rows.newIndexOfOld[oldIndex]
            guard newIndex >= 0 else {
                if target != nil { deletes.append(IndexPath(row: row, section: section)) }
                continue
            }
            let newSection = newSectionOf[newIndex]
            switch (target, sections.oldOfNew[newSection] != nil) {
            case (nil, false): continue
            case (nil, true): inserts.append(newPath(newIndex))
            case (_?, false): deletes.append(IndexPath(row: row, section: section))
            case (let target?, true) where target == newSection: stayers.append((row, newIndex))
            case (_?, true): addMove(from: IndexPath(row: row, section: section), toFlatIndex: newIndex)
            }
        }
        let inPlace = longestIncreasingSubsequence(stayers.map(\.newIndex))
        for (stayer, inPlace) in zip(stayers, inPlace) {
            if !inPlace {
                addMove(from: IndexPath(row: stayer.row, section: section), toFlatIndex: stayer.newIndex)
            } else if rows.isUpdated[stayer.newIndex] {
                updates.append(IndexPath(row: stayer.row, section: section))
            }
        }
    }

    private mutating func addMove(from: IndexPath, toFlatIndex newIndex: Int) {
        moves.append(.init(from: from, to: newPath(newIndex), isChanged: rows.isUpdated[newIndex]))
    }

    /// Inserts the new rows that no old row matches, in surviving sections.
    private mutating func addUnmatchedNewRows() {
        for (newIndex, isMatched) in rows.isMatched.enumerated()
        where !isMatched && sections.oldOfNew[newSectionOf[newIndex]] != nil {
            inserts.append(newPath(newIndex))
        }
    }
}
