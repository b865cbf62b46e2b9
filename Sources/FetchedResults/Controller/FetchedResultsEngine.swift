import Dispatch
import SQLiteStoreCore

/// The part of a fetched-results controller that follows the store: it owns the working
/// index, handles each committed transaction on its own serial queue (so no transaction
/// ever waits for the consumer, and the consumer never waits for SQLite on a change), and
/// leaves each consumer its change in the `hub`. A failure to follow the store is handed to
/// the consumers and stops the following until the next fetch.
///
/// `@unchecked Sendable`: every stored `var` is read and written only on `queue`; what the
/// consumers share (`hub`, `rowsRead`) is behind locks.
final class FetchedResultsEngine<M: StoreModel>: @unchecked Sendable {
    let queue = DispatchQueue(label: "SQLiteStore.FetchedResultsController")
    let hub = DeliveryHub<M>()
    let rowsRead = Locked(0)
    private let store: Store
    private var plan: FetchPlan<M>?
    private var current: ResultIndex?
    /// The results every consumer has once it takes what the hub holds for it.
    private var lastPosted: ResultIndex?
    private var observation: ChangeObservation?

    init(store: Store) { self.store = store }

    deinit {
        observation?.cancel()
        hub.close()
    }

    // MARK: Requests (called with queue.sync by the consumer)

    /// Subscribes to `plan`'s table, reads its results and makes them the consumer's, dropping
    /// anything pending. Returns the results and, without a batch size, all objects.
    func start(_ plan: FetchPlan<M>) throws -> (ResultIndex, [Int64: M]?) {
        dispatchPrecondition(condition: .onQueue(queue))
        subscribe(to: plan)
        let (index, objects) = try fetch(plan)
        current = index
        lastPosted = index
        hub.start(with: index, table: plan.table)
        return (index, objects?.models)
    }

    /// Switches to `plan`, posting the change from the consumer's results to the new ones.
    func replace(with plan: FetchPlan<M>) throws {
        dispatchPrecondition(condition: .onQueue(queue))
        hub.clearPersistentFailures()
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
            if plan.isIncremental, !rows.isWhollyChanged, !changes.isExternal {
                try apply(rows.allRowIDs, to: index, plan)
            } else {
                let (fresh, objects) = try fetch(plan)
                current = fresh
                let knowsRows = !rows.isWhollyChanged && !changes.isExternal
                post(.everything(updated: knowsRows ? rows.allRowIDs : nil), objects: objects)
            }
        } catch {
            observation?.cancel()
            observation = nil
            hub.fail(FetchedResultsError.wrap(error))
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
            let models = try db.fetch(plan.request)
            count += models.count
            let byRowID = Dictionary(models.compactMap { model in model.id.map { ($0, model) } }) { first, _ in first }
            return (index, LoadedObjects(models: byRowID, replacesAll: true))
        }
        rowsRead.withLock { $0 += count }
        return result
    }

    // MARK: Delivery

    /// Hands every consumer the step from the last posted results to `current`; a consumer
    /// that has not taken its previous change gets the two merged.
    private func post(_ changes: ResultChanges, objects: LoadedObjects<M>?) {
        guard let current, let lastPosted, let plan else { return }
        hub.post(PendingDelivery(base: lastPosted, result: current, table: plan.table, changes: changes,
                                 changeSet: changes.changeSet(from: lastPosted, to: current), objects: objects))
        self.lastPosted = current
    }

    /// Runs after every transaction committed before this call has been handled.
    func flush() async {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }
}
