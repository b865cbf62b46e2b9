/// The changes published to one consumer and not yet taken, in commit order: one element per
/// transaction, or, when coalescing, every transaction merged into one `StoreChanges` as it
/// comes, so that what waits is bounded by the rows changed, not by the transactions.
///
/// Merging keeps the before/after rule of `TableChanges.append` across transactions: a row
/// inserted then updated is inserted, updated then deleted is deleted, inserted then deleted
/// is gone, deleted then inserted again is updated. No row is lost. Merged changes are
/// external (remote) only when all of them were.
final class PendingChanges: Sendable {
    /// A queue of two stacks: `add` pushes on `inbox`; `take` pops `outbox`, refilled with
    /// `inbox` reversed when empty. When coalescing, `inbox` holds at most one element.
    private struct Queue {
        var inbox: [StoreChanges] = []
        var outbox: [StoreChanges] = []
    }

    private let coalescing: Bool
    private let queue = Locked(Queue())

    init(coalescing: Bool) {
        self.coalescing = coalescing
    }

    /// Adds `changes` (merged into the pending ones, when coalescing); returns whether none
    /// were pending before (the consumer must then be told).
    @discardableResult
    func add(_ changes: StoreChanges) -> Bool {
        queue.withLock { queue in
            let wasEmpty = queue.inbox.isEmpty && queue.outbox.isEmpty
            if coalescing, let earlier = queue.inbox.popLast() {
                queue.inbox.append(Self.merge(earlier, changes))
            } else {
                queue.inbox.append(changes)
            }
            return wasEmpty
        }
    }

    /// The oldest pending changes (all of them, merged, when coalescing), if any.
    func take() -> StoreChanges? {
        queue.withLock { queue in
            if queue.outbox.isEmpty {
                queue.outbox = queue.inbox.reversed()
                queue.inbox.removeAll()
            }
            return queue.outbox.popLast()
        }
    }

    private static func merge(_ earlier: StoreChanges, _ later: StoreChanges) -> StoreChanges {
        var merged = earlier
        merged.formUnion(later)
        return StoreChanges(
            tableChanges: merged.tableChanges, affectsAllTables: merged.affectsAllTables,
            isExternal: earlier.isExternal && later.isExternal, isRemote: earlier.isRemote && later.isRemote)
    }
}
