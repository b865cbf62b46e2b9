import Foundation
import SQLiteStoreResults

extension ChangeSet {
    /// The change set of a sectioned list seen as one run of rows in section `section` of
    /// a flat list, starting at row `oldStart` before the change and `newStart` after it.
    ///
    /// A deleted section becomes the deletes of all its old rows, an inserted section the
    /// inserts of all its new rows; rows listed in sections become the rows of the run.
    func flattened(
        oldRowCounts: [Int], newRowCounts: [Int], oldStart: Int, newStart: Int, intoSection section: Int
    ) -> ChangeSet {
        let oldFirstRows = Self.firstRows(of: oldRowCounts, from: oldStart)
        let newFirstRows = Self.firstRows(of: newRowCounts, from: newStart)
        let old = { (path: IndexPath) in IndexPath(row: oldFirstRows[path.section] + path.row, section: section) }
        let new = { (path: IndexPath) in IndexPath(row: newFirstRows[path.section] + path.row, section: section) }
        let wholeDeletes = sectionDeletes.flatMap { deleted in
            (0..<oldRowCounts[deleted]).map { old(IndexPath(row: $0, section: deleted)) }
        }
        let wholeInserts = sectionInserts.flatMap { inserted in
            (0..<newRowCounts[inserted]).map { new(IndexPath(row: $0, section: inserted)) }
        }
        return ChangeSet(
            deletes: deletes.map(old) + wholeDeletes,
            inserts: inserts.map(new) + wholeInserts,
            moves: moves.map { Move(from: old($0.from), to: new($0.to), isChanged: $0.isChanged) },
            updates: updates.map(old)
        )
    }

    /// The flat row at which each section starts.
    private static func firstRows(of rowCounts: [Int], from start: Int) -> [Int] {
        var firstRows: [Int] = []
        firstRows.reserveCapacity(rowCounts.count)
        var row = start
        for count in rowCounts {
            firstRows.append(row)
            row += count
        }
        return firstRows
    }
}
