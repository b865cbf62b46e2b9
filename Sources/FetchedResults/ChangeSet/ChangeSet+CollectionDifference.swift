import Foundation

extension ChangeSet {
    /// The change set as Swift's `CollectionDifference`, for a list of one
    /// section (section 0), given the old and new elements, so that
    /// `old.applying(difference) == new`.
    ///
    /// Deletes become removals and inserts insertions; each move becomes a
    /// removal and an insertion associated with each other. Updates have no
    /// counterpart and are left out.
    ///
    /// - Throws: `.notSingleSection` when the change set has section changes or
    ///   rows outside section 0; `.invalidIndexPath` when a row is out of bounds
    ///   of `old` or `new` or listed twice; `.countMismatch` when the counts of
    ///   `old` and `new` do not match the change set.
    public func collectionDifference<Element>(
        from old: [Element], to new: [Element]
    ) throws(ChangeSetError) -> CollectionDifference<Element> {
        try checkFlat(oldCount: old.count, newCount: new.count)
        let removals = deletes.map {
            CollectionDifference<Element>.Change.remove(
                offset: $0.row, element: old[$0.row], associatedWith: nil)
        }
        let insertions = inserts.map {
            CollectionDifference<Element>.Change.insert(
                offset: $0.row, element: new[$0.row], associatedWith: nil)
        }
        let movesOut = moves.map {
            CollectionDifference<Element>.Change.remove(
                offset: $0.from.row, element: old[$0.from.row], associatedWith: $0.to.row)
        }
        let movesIn = moves.map {
            CollectionDifference<Element>.Change.insert(
                offset: $0.to.row, element: new[$0.to.row], associatedWith: $0.from.row)
        }
        guard let difference = CollectionDifference(removals + insertions + movesOut + movesIn) else {
            // Unreachable: `checkFlat` rejects repeated offsets, the only reason for `nil`.
            throw .notSingleSection
        }
        return difference
    }

    /// Checks that the change set is a valid step between flat lists of the given counts.
    private func checkFlat(oldCount: Int, newCount: Int) throws(ChangeSetError) {
        let paths = deletes + inserts + updates + moves.flatMap { [$0.from, $0.to] }
        guard sectionDeletes.isEmpty, sectionInserts.isEmpty,
            paths.allSatisfy({ $0.count == 2 && $0.section == 0 })
        else { throw .notSingleSection }
        _ = try ChangeSetLayout(self, oldRowCounts: [oldCount])
        let arriving =
            inserts.map { ($0, ChangeSetError.Role.insert) }
            + moves.map { ($0.to, ChangeSetError.Role.moveDestination) }
        if let (path, role) = arriving.first(where: { $0.0.row >= newCount }) {
            throw .invalidIndexPath(path, role)
        }
        let expected = oldCount - deletes.count + inserts.count
        guard expected == newCount else { throw .countMismatch(section: 0, expected: expected, actual: newCount) }
    }
}
