import Foundation

extension ChangeSet {
    /// Applies the change set to old results, giving the new results.
    ///
    /// Untouched and moved rows come from `old`; content that only the new
    /// results know comes from the providers: `insertedSection` gives the
    /// section inserted at a new section index, `insertedRow` the ID inserted
    /// at a new index path. Updates leave IDs as they are.
    ///
    /// - Throws: `ChangeSetError.invalidSection` or `.invalidIndexPath` when
    ///   an index is out of bounds for its side (old for deletes, move sources
    ///   and updates; new for inserts and move destinations), lies inside a
    ///   deleted or inserted section, or is listed twice.
    public func applied<ID>(
        to old: SectionedSnapshot<ID>,
        insertedSection: (Int) -> SectionedSnapshot<ID>.Section,
        insertedRow: (IndexPath) -> ID
    ) throws(ChangeSetError) -> SectionedSnapshot<ID> {
        try apply(to: old, insertedSection: insertedSection, insertedRow: insertedRow)
    }

    /// Applies the change set to old results, taking only inserted sections
    /// and inserted rows from `new`, and checks that the result has the shape
    /// of `new`. For a correct change set the result equals `new`.
    ///
    /// - Throws: the errors of `applied(to:insertedSection:insertedRow:)`,
    ///   `.invalidIndexPath` when an insert lies outside `new`, and
    ///   `.countMismatch` when the section or row counts differ from `new`.
    public func applied<ID>(
        to old: SectionedSnapshot<ID>, new: SectionedSnapshot<ID>
    ) throws(ChangeSetError) -> SectionedSnapshot<ID> {
        let sectionCount = ChangeSetLayout.newSectionCount(of: self, oldSectionCount: old.sections.count)
        guard sectionCount == new.sections.count else {
            throw .countMismatch(section: nil, expected: sectionCount, actual: new.sections.count)
        }
        let result = try apply(
            to: old,
            insertedSection: { new.sections[$0] },
            insertedRow: { path throws(ChangeSetError) in
                guard let id = new.id(at: path) else { throw .invalidIndexPath(path, .insert) }
                return id
            }
        )
        for (index, (made, expected)) in zip(result.sections, new.sections).enumerated()
        where made.ids.count != expected.ids.count {
            throw .countMismatch(section: index, expected: made.ids.count, actual: expected.ids.count)
        }
        return result
    }

    private func apply<ID>(
        to old: SectionedSnapshot<ID>,
        insertedSection: (Int) throws(ChangeSetError) -> SectionedSnapshot<ID>.Section,
        insertedRow: (IndexPath) throws(ChangeSetError) -> ID
    ) throws(ChangeSetError) -> SectionedSnapshot<ID> {
        let layout = try ChangeSetLayout(self, oldRowCounts: old.sections.map(\.ids.count))
        var sections: [SectionedSnapshot<ID>.Section] = []
        sections.reserveCapacity(layout.oldSectionOfNew.count)
        for (newIndex, oldIndex) in layout.oldSectionOfNew.enumerated() {
            guard let oldIndex else {
                sections.append(try insertedSection(newIndex))
                continue
            }
            let ids = try Self.rows(
                staying: old.sections[oldIndex].ids, except: layout.departures[oldIndex],
                arriving: layout.arrivals[newIndex], inSection: newIndex,
                movedID: { old.sections[$0].ids[$1] }, insertedID: insertedRow
            )
            sections.append(.init(name: old.sections[oldIndex].name, ids: ids))
        }
        return SectionedSnapshot(sections: sections)
    }

    /// The rows of a surviving section: the old rows that stay, in order,
    /// with the arrivals placed at their new rows.
    private static func rows<ID>(
        staying oldIDs: [ID], except departures: [Int],
        arriving arrivals: [(row: Int, arrival: ChangeSetLayout.Arrival)], inSection section: Int,
        movedID: (_ section: Int, _ row: Int) -> ID, insertedID: (IndexPath) throws(ChangeSetError) -> ID
    ) throws(ChangeSetError) -> [ID] {
        let count = oldIDs.count - departures.count + arrivals.count
        if let late = arrivals.first(where: { $0.row >= count }) {
            throw .invalidIndexPath(IndexPath(row: late.row, section: section), late.arrival.role)
        }
        var ids: [ID] = []
        ids.reserveCapacity(count)
        var nextArrival = 0
        var nextDeparture = 0
        var oldRow = 0
        for row in 0..<count {
            if nextArrival < arrivals.count, arrivals[nextArrival].row == row {
                switch arrivals[nextArrival].arrival {
                case .inserted: ids.append(try insertedID(IndexPath(row: row, section: section)))
                case .moved(let section, let row): ids.append(movedID(section, row))
                }
                nextArrival += 1
                continue
            }
            while nextDeparture < departures.count, departures[nextDeparture] == oldRow {
                nextDeparture += 1
                oldRow += 1
            }
            ids.append(oldIDs[oldRow])
            oldRow += 1
        }
        return ids
    }
}
