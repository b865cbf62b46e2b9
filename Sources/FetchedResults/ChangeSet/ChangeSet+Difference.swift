import Foundation

extension ChangeSet {
    /// The change set from `old` to `new`, in O(n log n) with hash maps.
    ///
    /// - Sections are matched by name: a name that disappears is a deleted
    ///   section, a new name an inserted one. Surviving sections may change
    ///   index; a section that changed order relative to the other surviving
    ///   sections is deleted and inserted again (there are no section moves).
    /// - Rows are matched by ID. In each surviving section, a longest run of
    ///   rows that keep their relative order stays in place; the section's
    ///   other rows, and rows that change between surviving sections, move.
    /// - Rows in `updated` that stay in place are updates; moved ones get
    ///   `isChanged`. IDs in `updated` that are not in both results are ignored.
    /// - Repeated IDs (or section names) in a snapshot are a programmer error,
    ///   handled deterministically: the k-th section of a name matches the
    ///   k-th of that name; only the first occurrence of a row ID is matched,
    ///   later occurrences are deleted and inserted. The result still
    ///   satisfies `applied(to: old, new: new) == new`.
    public init<ID>(from old: SectionedSnapshot<ID>, to new: SectionedSnapshot<ID>, updated: Set<ID> = []) {
        let sections = DiffSectionMatch(oldNames: old.sections.map(\.name), newNames: new.sections.map(\.name))
        self = DiffRows.changeSet(
            oldRowCounts: old.sections.map(\.ids.count), newRowCounts: new.sections.map(\.ids.count),
            sections: sections,
            rows: DiffRowMatch(old: old.sections.map(\.ids), new: new.sections.map(\.ids), updated: updated)
        )
    }
}
