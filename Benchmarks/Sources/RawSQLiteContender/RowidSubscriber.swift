import CSQLiteBench

/// The least a change subscriber over the C API can do: an update hook that records inserted
/// rowids while the transaction runs, delivered to the subscriber once `COMMIT` succeeded.
final class RowidSubscriber {
    private var pendingInserts: [Int64] = []
    private(set) var deliveredInsertCount = 0

    /// Installs the update hook on `connection`; the subscriber must outlive the hook.
    func install(on connection: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_update_hook(
            connection,
            { context, operation, _, _, rowid in
                guard let context, operation == SQLITE_INSERT else { return }
                Unmanaged<RowidSubscriber>.fromOpaque(context).takeUnretainedValue().pendingInserts.append(rowid)
            }, context)
    }

    /// Hands the committed transaction's rowids to the subscriber.
    func deliverPending() {
        deliveredInsertCount += pendingInserts.count
        pendingInserts.removeAll(keepingCapacity: true)
    }

    /// Forgets the rowids of a rolled-back transaction.
    func discardPending() {
        pendingInserts.removeAll(keepingCapacity: true)
    }
}
