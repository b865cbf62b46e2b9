import Foundation

/// Translation of coordinates, for data sources composed of children.
extension ChangeSet {
    /// The change set with every section index shifted: old-side indexes
    /// (section deletes, deletes, move sources, updates) by `oldOffset`,
    /// new-side indexes (section inserts, inserts, move destinations) by
    /// `newOffset`. A child placed after other sections uses the section counts
    /// before it in the old and in the new results.
    public func offsettingSections(old oldOffset: Int, new newOffset: Int) -> ChangeSet {
        translated(
            sectionDelete: { $0 + oldOffset }, sectionInsert: { $0 + newOffset },
            old: { IndexPath(row: $0.row, section: $0.section + oldOffset) },
            new: { IndexPath(row: $0.row, section: $0.section + newOffset) }
        )
    }

    /// The change set with every section index shifted by `offset`, on both sides.
    public func offsettingSections(by offset: Int) -> ChangeSet {
        offsettingSections(old: offset, new: offset)
    }

    /// The change set with the rows of `section` shifted: old-side index paths
    /// in that section by `oldOffset`, new-side ones by `newOffset`. Other
    /// sections and the section changes are left as they are. A child placed
    /// after other rows of a section uses the row counts before it in the old
    /// and in the new results.
    public func offsettingRows(old oldOffset: Int, new newOffset: Int, inSection section: Int) -> ChangeSet {
        func shift(by offset: Int) -> (IndexPath) -> IndexPath {
            { $0.section == section ? IndexPath(row: $0.row + offset, section: section) : $0 }
        }
        return translated(sectionDelete: { $0 }, sectionInsert: { $0 }, old: shift(by: oldOffset), new: shift(by: newOffset))
    }

    /// The change set with the rows of `section` shifted by `offset`, on both sides.
    public func offsettingRows(by offset: Int, inSection section: Int) -> ChangeSet {
        offsettingRows(old: offset, new: offset, inSection: section)
    }

    private func translated(
        sectionDelete: (Int) -> Int, sectionInsert: (Int) -> Int,
        old: (IndexPath) -> IndexPath, new: (IndexPath) -> IndexPath
    ) -> ChangeSet {
        ChangeSet(
            sectionDeletes: sectionDeletes.map(sectionDelete),
            sectionInserts: sectionInserts.map(sectionInsert),
            deletes: deletes.map(old),
            inserts: inserts.map(new),
            moves: moves.map { Move(from: old($0.from), to: new($0.to), isChanged: $0.isChanged) },
            updates: updates.map(old)
        )
    }
}
