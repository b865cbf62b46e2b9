/// Which rows differ between two results of a controller, accumulated over transactions.
enum ResultChanges: Sendable {
    /// Only these rows may differ; the request is the same.
    case rows(Set<Int64>)
    /// The results were read again from the same table: rows match by rowid, and a row is
    /// updated when the fingerprint of its values (with its included values) changed, or
    /// when it is among `updating` (rows changed earlier in a merged delivery).
    case refetched(updating: Set<Int64>)
    /// The results were read from another table: no row is the same.
    case reloaded
    /// The old results were a first page and the new ones are the whole index read in the
    /// same snapshot: the same rows lead, in the same order and sections, and more follow.
    case appended

    /// These changes followed by `later`.
    func union(_ later: ResultChanges) -> ResultChanges {
        switch (self, later) {
        case (.rows(let a), .rows(let b)): .rows(a.union(b))
        case (.reloaded, _), (_, .reloaded): .reloaded
        default: .refetched(updating: updatedRows.union(later.updatedRows))
        }
    }

    /// The rows these changes report as updated whatever their fingerprints say.
    private var updatedRows: Set<Int64> {
        switch self {
        case .rows(let rows), .refetched(let rows): rows
        case .reloaded, .appended: []
        }
    }

    /// The change set from `old` to `new`: O(k log n) for row changes, O(n) otherwise.
    func changeSet(from old: ResultIndex, to new: ResultIndex) -> ChangeSet {
        switch self {
        case .rows(let rows):
            return IncrementalChangeSet.make(from: old, to: new, changed: rows)
        case .refetched(let updating):
            return ChangeSet(from: old.snapshot(), to: new.snapshot(), updated: old.rowsWithChangedValues(in: new).union(updating))
        case .reloaded:
            guard old.count > 0 || new.count > 0 else { return ChangeSet() }
            return ChangeSet(sectionDeletes: Array(0..<old.sectionCount), sectionInserts: Array(0..<new.sectionCount))
        case .appended:
            return AppendedRows.changeSet(from: old, to: new)
        }
    }

    /// The rows whose cached objects are stale, `nil` meaning all.
    var staleRows: Set<Int64>? {
        switch self {
        case .rows(let rows): rows
        case .appended: []
        case .refetched, .reloaded: nil
        }
    }
}
