/// The changes published but not yet taken by a slow consumer, merged into one `StoreChanges`
/// as they come, so that what waits is bounded by the rows changed, not by the transactions.
///
/// Merging keeps the before/after rule of `TableChanges.append` across transactions: a row
/// inserted then updated is inserted, updated then deleted is deleted, inserted then deleted
/// is gone, deleted then inserted again is updated. No row is lost. Merged changes are
/// external only when all of them were.
final class PendingChanges: Sendable {
    private let pending = Locked<StoreChanges?>(nil)

    /// Merges `changes` into the pending ones; returns whether there were none before (the
    /// consumer must then be told).
    @discardableResult
    func add(_ changes: StoreChanges) -> Bool {
        pending.withLock { pending in
            guard let earlier = pending else {
                pending = changes
                return true
            }
            var merged = earlier
            merged.formUnion(changes)
            pending = StoreChanges(
                tableChanges: merged.tableChanges, affectsAllTables: merged.affectsAllTables,
                isExternal: earlier.isExternal && changes.isExternal, isRemote: earlier.isRemote && changes.isRemote)
            return false
        }
    }

    /// The pending changes, if any, leaving none.
    func take() -> StoreChanges? {
        pending.withLock { pending in
            defer { pending = nil }
            return pending
        }
    }
}
