/// Which rows differ between two results of a controller, accumulated over transactions.
enum ResultChanges: Sendable {
    /// Only these rows may differ; the request is the same.
    case rows(Set<Int64>)
    /// The results were read again; `updated` lists the rows whose values may have changed,
    /// `nil` meaning any row.
    case everything(updated: Set<Int64>?)

    /// These changes followed by `later`.
    func union(_ later: ResultChanges) -> ResultChanges {
        switch (self, later) {
        case (.rows(let a), .rows(let b)): .rows(a.union(b))
        case (.rows(let a), .everything(let b)), (.everything(let b), .rows(let a)): .everything(updated: b.map { $0.union(a) })
        case (.everything(let a), .everything(let b)): .everything(updated: a.flatMap { a in b.map { a.union($0) } })
        }
    }

    /// The change set from `old` to `new`: O(k log n) for row changes, O(n) otherwise.
    func changeSet(from old: ResultIndex, to new: ResultIndex) -> ChangeSet {
        switch self {
        case .rows(let rows):
            return IncrementalChangeSet.make(from: old, to: new, changed: rows)
        case .everything(let updated):
            let oldRows = old.snapshot(), newRows = new.snapshot()
            let everyRow = Set(newRows.sections.lazy.flatMap(\.ids))
            return ChangeSet(from: oldRows, to: newRows, updated: updated ?? everyRow)
        }
    }

    /// The rows whose cached objects are stale, `nil` meaning all.
    var staleRows: Set<Int64>? {
        switch self {
        case .rows(let rows): rows
        case .everything(let updated): updated
        }
    }
}
