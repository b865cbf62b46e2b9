import Dispatch
import SQLiteStoreCore

/// The part of a fetched-results controller that follows the store: it owns the working
/// index, handles each committed transaction on its own serial queue (so no transaction
/// ever waits for the consumer, and the consumer never waits for SQLite on a change), and
/// leaves the consumer a `PendingDelivery` in the mailbox.
///
/// `@unchecked Sendable`: every stored `var` is read and written only on `queue`; what the
/// consumer shares (`mailbox`, `rowsRead`) is behind locks.
final class FetchedResultsEngine<M: StoreModel>: @unchecked Sendable {
    let queue = DispatchQueue(label: "SQLiteStore.FetchedResultsController")
    let mailbox = Locked(Mailbox<M>())
    let rowsRead = Locked(0)
    private let store: Store
    private var plan: FetchPlan<M>?
    private var current: ResultIndex?
    /// The results the consumer has once it takes what is in the mailbox.
    private var lastPosted: ResultIndex?
    private var observation: ChangeObservation?
    private var mustRefetch = false

    init(store: Store) { self.store = store }

    deinit { observation?.cancel() }

    // MARK: Requests (called with queue.sync by the consumer)

    /// Subscribes to `plan`'s table, reads its results and makes them the consumer's, dropping
    /// anything pending. Returns the results and, without a batch size, all objects.
    func start(_ plan: FetchPlan<M>) throws -> (ResultIndex, [Int64: M]?) {
        dispatchPrecondition(condition: .onQueue(queue))
        subscribe(to: plan)
        let (index, objects) = try fetch(plan)
        current = index
        lastPosted = index
        mailbox.withLock { $0.pending = nil }
        return (index, objects?.models)
    }

    /// Switches to `plan`, posting the change from the consumer's results to the new ones.
    func replace(with plan: FetchPlan<M>) throws {
        dispatchPrecondition(condition: .onQueue(queue))
        subscribe(to: plan)
        let (index, objects) = try fetch(plan)
        current = index
        post(.everything(updated: []), objects: objects)
    }

    private func subscribe(to plan: FetchPlan<M>) {
        if self.plan?.table.lowercased() != plan.table.lowercased() || observation == nil {
            observation?.cancel()
            observation = store.observeChanges(in: [plan.table], on: queue) { [weak self] changes in
                self?.handle(changes)
            }
        }
        self.plan = plan
    }

    // MARK: Transactions

    private func handle(_ changes: StoreChanges) {
        guard let plan, let index = current else { return }
        let rows = changes.changes(in: plan.table)
        guard !rows.isEmpty else { return }
        do {
            if plan.isIncremental, !rows.isWhollyChanged, !changes.isExternal, !mustRefetch {
                try apply(rows.allRowIDs, to: index, plan)
            } else {
                let (fresh, objects) = try fetch(plan)
                current = fresh
                let knowsRows = !rows.isWhollyChanged && !changes.isExternal && !mustRefetch
                post(.everything(updated: knowsRows ? rows.allRowIDs : nil), objects: objects)
            }
            mustRefetch = false
        } catch {
            mustRefetch = true
            mailbox.withLock { $0.error = FetchedResultsError.wrap(error) }
        }
    }

    /// Re-reads only `changed` and merges them into the index by sort key.
    private func apply(_ changed: Set<Int64>, to index: ResultIndex, _ plan: FetchPlan<M>) throws {
        var count = 0
        let (keys, models) = try store.read { db in
            let keys = try plan.fetchKeys(db, rowIDs: changed, rowsRead: &count)
            let models = plan.request.batchSize == nil ? try db.fetchModels(M.self, table: plan.table, rowIDs: keys.keys) : nil
            count += models?.count ?? 0
            return (keys, models)
        }
        rowsRead.withLock { $0 += count }
        var index = index
        for rowID in changed { index.remove(rowID) }
        for (rowID, rowKeys) in keys { index.insert(rowID, rowKeys) }
        current = index
        post(.rows(changed), objects: models.map { LoadedObjects(models: $0, replacesAll: false) })
    }

    /// Reads the whole index (and, without a batch size, every object) in one snapshot.
    private func fetch(_ plan: FetchPlan<M>) throws -> (ResultIndex, LoadedObjects<M>?) {
        var count = 0
        let result = try store.read { db in
            let index = try plan.fetchIndex(db, rowsRead: &count)
            guard plan.request.batchSize == nil else { return (index, nil as LoadedObjects<M>?) }
            let byRowID = try db.fetchByRowID(plan.request)
            count += byRowID.count
            return (index, LoadedObjects(models: byRowID, replacesAll: true))
        }
        rowsRead.withLock { $0 += count }
        return result
    }

    // MARK: Delivery

    /// Leaves the step from the consumer's results to `current` in the mailbox, merged with
    /// what the consumer has not taken yet, and asks the consumer to drain it.
    private func post(_ changes: ResultChanges, objects: LoadedObjects<M>?) {
        guard let current, let lastPosted else { return }
        let untaken = mailbox.withLock { mailbox in
            defer { mailbox.pending = nil }
            return mailbox.pending
        }
        let base = untaken?.base ?? lastPosted
        let merged = untaken.map { $0.changes.union(changes) } ?? changes
        let mergedObjects = untaken?.objects.map { $0.merged(with: objects) } ?? objects
        let delivery = PendingDelivery(base: base, result: current, changes: merged,
                                       changeSet: merged.changeSet(from: base, to: current), objects: mergedObjects)
        self.lastPosted = current
        let notify = mailbox.withLock { mailbox in
            mailbox.pending = delivery
            return mailbox.notify
        }
        notify?()
    }

    /// Runs after every transaction committed before this call has been handled.
    func flush() async {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }
}
