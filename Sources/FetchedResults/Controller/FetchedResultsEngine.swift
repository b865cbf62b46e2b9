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
    /// The tables `observation` follows, lowercased: the request's and its links' parent tables.
    private var observedTables: Set<String> = []

    init(store: Store) { self.store = store }

    deinit {
        observation?.cancel()
        hub.close()
    }

    // MARK: Requests (called with queue.sync by the consumer)

    /// Subscribes to `request`'s table, reads its results and makes them the consumer's,
    /// dropping anything pending. Returns the results and, without a batch size, all objects.
    func start(_ request: StoreRequest<M>) throws -> (ResultIndex, [Int64: M]?) {
        dispatchPrecondition(condition: .onQueue(queue))
        subscribe(to: request)
        let (plan, index, objects) = try fetch(request)
        self.plan = plan
        current = index
        lastPosted = index
        hub.start(with: index, table: plan.table)
        return (index, objects?.models)
    }

    /// Switches to `request`, posting the change from the consumer's results to the new ones:
    /// rows match by rowid within one table; from another table every row is new.
    func replace(with request: StoreRequest<M>) throws {
        dispatchPrecondition(condition: .onQueue(queue))
        hub.clearPersistentFailures()
        let isSameTable = plan?.table.lowercased() == request.tableName.lowercased()
        subscribe(to: request)
        let (plan, index, objects) = try fetch(request)
        self.plan = plan
        current = index
        post(isSameTable ? .refetched : .reloaded, objects: objects)
    }

    /// Follows the request's table and the parent tables of the relationships it reads.
    private func subscribe(to request: StoreRequest<M>) {
        let tables = [request.tableName] + request.referencedLinks.map(\.parentTable)
        if Set(tables.map { $0.lowercased() }) != observedTables || observation == nil {
            observation?.cancel()
            observedTables = Set(tables.map { $0.lowercased() })
            observation = store.observeChanges(in: Set(tables), on: queue) { [weak self] changes in
                self?.handle(changes)
            }
        }
    }

    // MARK: Transactions

    private func handle(_ changes: StoreChanges) {
        guard let plan, let index = current else { return }
        let rows = changes.changes(in: plan.table)
        // Interim, until the controller follows relationships incrementally: a change of a
        // related table is answered by a re-fetch (such requests are never incremental).
        let relatedChanged = plan.request.referencedLinks.contains { !changes.changes(in: $0.parentTable).isEmpty }
        guard !rows.isEmpty || relatedChanged else { return }
        do {
            let canApply = plan.isIncremental && !rows.isWhollyChanged && !changes.isExternal
            let applied = try canApply && apply(rows.allRowIDs, to: index, plan)
            if !applied {
                let (fresh, freshIndex, objects) = try fetch(plan.request)
                self.plan = fresh
                current = freshIndex
                post(.refetched, objects: objects)
            }
        } catch {
            observation?.cancel()
            observation = nil
            hub.fail(FetchedResultsError.wrap(error))
        }
    }

    /// Re-reads only `changed` and merges those whose values changed into the index by sort
    /// key. Returns `false`, changing nothing, when the index turns out inconsistent with its
    /// order (the caller then reads everything again).
    private func apply(_ changed: Set<Int64>, to index: ResultIndex, _ plan: FetchPlan<M>) throws -> Bool {
        var count = 0
        let (rows, models) = try store.read { db in
            let rows = try plan.fetchRows(db, rowIDs: changed, rowsRead: &count)
            let models = plan.request.batchSize == nil ? try db.fetchModels(M.self, table: plan.table, rowIDs: rows.keys) : nil
            count += models?.count ?? 0
            return (rows, models)
        }
        rowsRead.withLock { $0 += count }
        var index = index
        var touched: Set<Int64> = []
        for rowID in changed {
            // A row rewritten with the values it had is no change.
            if let row = rows[rowID], index.fingerprint(of: rowID) == row.fingerprint { continue }
            guard index.remove(rowID) else { return false }
            touched.insert(rowID)
        }
        for rowID in touched {
            if let row = rows[rowID] { index.insert(rowID, row.keys, fingerprint: row.fingerprint) }
        }
        current = index
        post(.rows(touched), objects: models.map { LoadedObjects(models: $0, replacesAll: false) })
        return true
    }

    /// Resolves `request` against the schema and reads the whole index (and, without a batch
    /// size, every object) in one snapshot.
    private func fetch(_ request: StoreRequest<M>) throws -> (FetchPlan<M>, ResultIndex, LoadedObjects<M>?) {
        var count = 0
        let registered = store.configuration.collations
        let result = try store.read { db in
            let plan = try FetchPlan(request, db: db, registered: registered)
            let index = try plan.fetchIndex(db, rowsRead: &count)
            guard request.batchSize == nil else { return (plan, index, nil as LoadedObjects<M>?) }
            let byRowID = try db.fetchByRowID(request)
            count += byRowID.count
            return (plan, index, LoadedObjects(models: byRowID, replacesAll: true))
        }
        rowsRead.withLock { $0 += count }
        return result
    }

    // MARK: Delivery

    /// Hands every consumer the step from the last posted results to `current`; a consumer
    /// that has not taken its previous change gets the two merged.
    private func post(_ changes: ResultChanges, objects: LoadedObjects<M>?) {
        guard let current, let lastPosted, let plan else { return }
        hub.post(
            PendingDelivery(
                base: lastPosted, result: current, table: plan.table, changes: changes,
                changeSet: changes.changeSet(from: lastPosted, to: current), objects: objects))
        self.lastPosted = current
    }

    /// Runs after every transaction committed before this call has been handled.
    func flush() async {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }
}
