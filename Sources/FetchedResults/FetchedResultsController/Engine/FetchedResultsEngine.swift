import Dispatch
import SQLiteStoreCore

/// The part of a fetched-results controller that follows the store: it owns the working
/// index, handles each committed transaction on its own serial queue (so no transaction
/// ever waits for the consumer, and the consumer never waits for SQLite on a change), and
/// leaves each consumer its change in the `hub`. A failure to follow the store (its own, or
/// the store's failure) is handed to the consumers and stops the following until the next fetch.
///
/// `@unchecked Sendable`: every stored `var` is read and written only on `queue`; what the
/// consumers share (`hub`, `rowsRead`) is behind locks.
final class FetchedResultsEngine<M: StoreModel>: @unchecked Sendable {
    let queue = DispatchQueue(label: "SQLiteStore.FetchedResultsController")
    let hub = DeliveryHub<M>()
    let rowsRead = Locked(0)
    /// How many non-empty change sets the engine has posted: one per committed transaction
    /// that changes the results (tests).
    let changeSetsPosted = Locked(0)
    private let store: Store
    private var plan: FetchPlan<M>?
    private var current: ResultIndex?
    /// The results every consumer has once it takes what the hub holds for it.
    private var lastPosted: ResultIndex?
    /// Finds the rows whose included related objects a transaction changed, when the request includes any.
    private var included: RelatedRowsTracker?
    /// Finds the rows whose keys or match read children a transaction changed, when they read any.
    private var children: RelatedRowsTracker?
    private var observation: ChangeObservation?
    /// The (ASCII-folded, as in `StoreChanges`) tables `observation` follows.
    private var observedTables: Set<String> = []
    /// Counts the fetches that read an index in the background: one stops reading once the
    /// count has moved past its own (a new fetch, `cancelBuild()`).
    private let builds = Locked(0)
    /// Whether the controller that owns the engine is gone: a re-read it no longer wants stops.
    private let isReleased = Locked(false)
    /// Whether the owner keeps every object (a ``LiveValues`` iterator): every read of rows
    /// then reads their models, whatever the request includes.
    private var keepsEveryObject = false

    init(store: Store) { self.store = store }

    deinit {
        observation?.cancel()
        hub.close()
    }

    // MARK: Requests (called by the consumer; all but `start` with queue.sync)

    /// What a first fetch returns: the first page (or, when the request has a limit or an
    /// offset or the store reads on its writer, every row), the objects read with it, and
    /// what answers for the rows past the page while the rest is read.
    struct FirstPage {
        let index: ResultIndex
        let objects: RowModels<M>?
        let rest: RowsPastFirstPage<M>
    }

    /// Subscribes to `request`'s table and its links' parent tables and reads its first
    /// `pageSize` rows (with their objects, without a batch size) in a read transaction held
    /// open, on the caller's thread (the queue runs a `sync` block there when it is idle, so
    /// the caller is never woken from another thread); returns them as the consumer's results,
    /// dropping anything pending. A job on the queue then reads the whole index in the same
    /// transaction and posts it as the change appending the rest; the transactions committed
    /// since the subscription are handled after it, in order. A request with a limit or an
    /// offset is read whole before returning, and so is every request when the store reads on
    /// its writer (an in-memory store): a read transaction left open there would hold up every
    /// write. `holdingAfter` holds the background read after that many rows (tests; see
    /// `RowsPastFirstPage`).
    func start(_ request: StoreRequest<M>, pageSize: Int, holdingAfter: Int?) throws -> FirstPage {
        dispatchPrecondition(condition: .notOnQueue(queue))
        let generation = builds.withLock { builds in
            builds += 1
            return builds
        }
        return try queue.sync {
            let build = Locked<IndexBuild?>(nil)
            // Queued before the subscription: every transaction it delivers is handled after
            // the index is complete, and those committed after the snapshot are applied to it.
            queue.async { [self] in
                if let build = build.withLock({ $0.take() }) { complete(build) }
            }
            subscribe(to: request)
            guard let held = try store.holdRead() else { return try readWhole(request, pageSize: pageSize) }
            do {
                let rest = RowsPastFirstPage<M>(holdingAfter: holdingAfter)
                let firstPage = try held.read { db in try readFirstPage(request, pageSize: pageSize, in: db, rest: rest) }
                build.withLock {
                    $0 = IndexBuild(held: held, request: request, page: firstPage.index, rest: rest, generation: generation)
                }
                return firstPage
            } catch {
                held.end()
                throw error
            }
        }
    }

    /// The index a first page leads, read by the job `start` queues, in the page's snapshot.
    private struct IndexBuild {
        let held: HeldRead
        let request: StoreRequest<M>
        let page: ResultIndex
        let rest: RowsPastFirstPage<M>
        let generation: Int
    }

    /// Subscribes to `request`'s tables and reads its whole index and every object in one read
    /// transaction on the queue, as the owner's results (a ``LiveValues`` iterator's start);
    /// every later change then carries the values of its changed rows. `request` has no batch
    /// size: the owner keeps every object.
    func startWithEveryObject(_ request: StoreRequest<M>) async throws(FetchedResultsError) -> FetchedValues<M> {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                queue.async { [self] in
                    continuation.resume(with: Result { try readEveryObject(request) })
                }
            }
        } catch {
            throw FetchedResultsError.wrap(error)
        }
    }

    private func readEveryObject(_ request: StoreRequest<M>) throws -> FetchedValues<M> {
        keepsEveryObject = true
        subscribe(to: request)
        do {
            let (plan, index, objects) = try fetch(request)
            self.plan = plan
            current = index
            lastPosted = index
            hub.start(with: index, table: plan.table)
            return try FetchedValues(results: FetchedResultsSnapshot(index: index, table: plan.table), objects: objects)
        } catch {
            stop(with: error)
            throw error
        }
    }

    /// Stops the index being read in the background, if any: its read transaction ends at
    /// once, and the results stay at their first page until the next fetch.
    func cancelBuild() {
        builds.withLock { $0 += 1 }
    }

    /// Stops what the owner no longer wants, when it is released: the background read, and a
    /// re-read of every row under way (after another connection's commit, say), which would
    /// otherwise go on until it ends, on a reader, beside whatever the app does next.
    func release() {
        isReleased.withLock { $0 = true }
        cancelBuild()
    }

    /// Reads the first page of `request` in `db` (every row when `whole`, or when the request
    /// has a limit or an offset) and makes it the consumer's results.
    private func readFirstPage(
        _ request: StoreRequest<M>, pageSize: Int, whole: Bool = false, in db: Database, rest: RowsPastFirstPage<M>
    ) throws -> FirstPage {
        var count = 0
        let plan = try FetchPlan(request, db: db, registered: store.configuration.collations)
        let pageRead = try whole ? nil : plan.fetchFirstPage(db, size: pageSize, rowsRead: &count)
        let page = try pageRead?.index ?? plan.fetchIndex(db, rowsRead: &count)
        let objects = try pageRead.map { $0.objects } ?? pageObjects(of: page, pageSize: pageSize, plan, db, rowsRead: &count)
        rowsRead.withLock { $0 += count }
        self.plan = plan
        current = page
        lastPosted = page
        hub.start(with: page, table: plan.table)
        return FirstPage(index: page, objects: objects, rest: rest)
    }

    /// Reads the whole index of `request` and the objects of its first page in one read on
    /// the writer (a store that reads on its writer), as the consumer's results.
    private func readWhole(_ request: StoreRequest<M>, pageSize: Int) throws -> FirstPage {
        try store.read { db in
            let firstPage = try readFirstPage(request, pageSize: pageSize, whole: true, in: db, rest: RowsPastFirstPage())
            if let plan { try trackRelatedRows(of: plan, db) }
            firstPage.rest.complete(with: firstPage.index)
            return firstPage
        }
    }

    /// Reads, in the results' snapshot `db`, what the trackers of `plan`'s related rows
    /// remember: its included objects' and its followed children's owners.
    private func trackRelatedRows(of plan: FetchPlan<M>, _ db: Database) throws {
        included = try RelatedRowsTracker.inclusions(of: plan.request, db: db)
        children = try RelatedRowsTracker.followedChildren(of: plan, db: db)
    }

    /// Reads the whole index a first page leads, in the page's transaction, answering the
    /// rows asked for on the way, and posts it as the change appending the rest, unless the
    /// page was all; stops once `builds` moves past the build's generation. Ends the
    /// transaction.
    private func complete(_ build: IndexBuild) {
        defer { build.held.end() }
        do {
            try build.held.read { db in
                guard let plan else { return build.rest.complete(with: build.page) }
                // Whole tables for collections: after the page, in its snapshot.
                try trackRelatedRows(of: plan, db)
                guard build.page.isFirstPage else { return build.rest.complete(with: build.page) }
                var count = 0
                let generation = build.generation
                let isCancelled: @Sendable () -> Bool = { [builds] in builds.withLock { $0 } != generation }
                let index = try plan.fetchIndex(db, rowsRead: &count, isCancelled: isCancelled, serving: build.rest)
                build.rest.complete(with: index)
                rowsRead.withLock { $0 += count }
                current = index
                let page = build.page
                // The same snapshot: the page's rows lead the index. A difference would be a
                // defect of the order; diffing then keeps the change set exact.
                let isAppended = index.rowIDs(in: 0..<page.count) == page.rowIDs(in: 0..<page.count)
                post(isAppended ? .appended : .refetched(updating: []), objects: nil)
            }
        } catch {
            build.rest.stop(with: error)
            guard !(error is CancellationError) else { return }
            stop(with: error)
        }
    }

    /// The objects of the first `pageSize + 1` rows of an index read whole (a request with a
    /// limit or an offset, or a store that reads on its writer), when the plan loads objects.
    private func pageObjects(
        of page: ResultIndex, pageSize: Int, _ plan: FetchPlan<M>, _ db: Database, rowsRead: inout Int
    ) throws -> RowModels<M>? {
        guard plan.loadsObjects else { return nil }
        let objects = try db.fetchModels(M.self, table: plan.table, rowIDs: page.rowIDs(in: 0..<min(page.count, pageSize + 1)))
        rowsRead += objects.count
        return RowModels(objects)
    }

    /// Switches to `request`, posting the change from the consumer's results to the new ones:
    /// rows match by rowid within one table; from another table every row is new.
    func replace(with request: StoreRequest<M>) throws {
        dispatchPrecondition(condition: .onQueue(queue))
        hub.clearPersistentFailures()
        let isSameTable = plan?.table.matchesSQLiteIdentifier(request.tableName) == true
        subscribe(to: request)
        let (plan, index, objects) = try fetch(request)
        self.plan = plan
        current = index
        post(isSameTable ? .refetched(updating: []) : .reloaded, objects: objects)
    }

    /// Follows the changes of `request`'s table, of every table its links read, of every
    /// other table its predicate reads (to-many and many-to-many conditions), of every table
    /// its keys aggregate rows of, and of every table its included objects come from.
    private func subscribe(to request: StoreRequest<M>) {
        let read =
            [request.tableName] + request.referencedLinks.map(\.parentTable) + (request.predicate?.relatedTables ?? [])
            + request.orderings.compactMap(\.column.aggregate).flatMap(\.tables) + request.inclusions.flatMap(\.tables)
        let tables = Set(read.map(\.sqliteIdentifierFolded))
        guard tables != observedTables || observation == nil else { return }
        observation?.cancel()
        observedTables = tables
        observation = store.observeChanges(
            in: tables, on: queue, didFail: { [weak self] error in self?.stop(with: error) }
        ) { [weak self] changes in
            self?.handle(changes)
        }
    }

    // MARK: Transactions

    /// Handles one committed transaction with one change: the changed rows, the children of
    /// changed parents, the rows whose followed children changed and the rows whose included
    /// related objects may have changed are read again together, and the fingerprints (which
    /// cover the included objects, counts and aggregates) tell which of them changed; or
    /// everything is read again and diffed by rowid and fingerprint.
    private func handle(_ changes: StoreChanges) {
        // A first page whose build was cancelled waits for the fetch that cancelled it.
        guard let plan, let index = current, !index.isFirstPage else { return }
        let rows = changes.changes(in: plan.table)
        let parents = plan.changedParents(in: changes)
        let unfollowed = plan.unfollowedTables.contains { !changes.changes(in: $0).isEmpty }
        let changesRelated = (children?.isAffected(by: changes) ?? false) || (included?.isAffected(by: changes) ?? false)
        guard !rows.isEmpty || !parents.isEmpty || unfollowed || changesRelated else { return }
        do {
            let canApply =
                plan.isIncremental && !unfollowed && !rows.isWhollyChanged && !changes.isExternal
                && !parents.contains { $0.changes.isWhollyChanged }
            let applied = try canApply && apply(rows.allRowIDs, parents: parents, related: changes, to: index, plan)
            guard !applied else { return }
            let (fresh, freshIndex, objects) = try fetch(plan.request) { [isReleased] in isReleased.withLock { $0 } }
            self.plan = fresh
            current = freshIndex
            post(.refetched(updating: []), objects: objects)
        } catch is CancellationError {
            return  // released: nobody follows the results any more
        } catch {
            stop(with: error)
        }
    }

    /// Stops following the store and hands `error` to every consumer, after its pending change.
    private func stop(with error: any Error) {
        observation?.cancel()
        observation = nil
        hub.fail(FetchedResultsError.wrap(error))
    }

    /// Re-reads only the `changed` rows, the children of the changed `parents` and the rows
    /// whose followed children or included related rows `related` changed (with their
    /// objects, in the same statements), and merges those whose values changed into the index
    /// by sort key. Returns `false`, changing nothing but the trackers' owners, when the index
    /// turns out inconsistent with its order or those rows cannot be known (the caller then
    /// reads everything again).
    private func apply(
        _ changed: Set<Int64>, parents: [(link: ToOneLink, changes: TableChanges)], related changes: StoreChanges,
        to index: ResultIndex, _ plan: FetchPlan<M>
    ) throws -> Bool {
        var count = 0
        // Taken, not copied: the trackers' owners then change in place.
        var trackers = [children.take(), included.take()]
        defer { (children, included) = (trackers[0], trackers[1]) }
        let read = try store.read { db -> (Set<Int64>, RereadRows<M>)? in
            var changed = changed
            for position in trackers.indices where trackers[position]?.isAffected(by: changes) == true {
                guard let owners = try trackers[position]?.changedRows(by: changes, db: db) else { return nil }
                changed.formUnion(owners)
            }
            var reread = try plan.fetchRows(db, rowIDs: changed, rowsRead: &count)
            for (link, changes) in parents {
                let children = try plan.fetchChildren(db, of: link, parents: changes.allRowIDs, rowsRead: &count)
                reread.merge(children.rows)
                changed.formUnion(children.rows.rows.keys)
                changed.formUnion(children.others)
            }
            return (changed, reread)
        }
        rowsRead.withLock { $0 += count }
        guard let (changed, reread) = read else { return false }
        var changes: [(rowID: Int64, row: (keys: SortKeys, fingerprint: UInt64)?)] = []
        // By rowid: rows that share their keys then come in their order (see `replace`).
        for rowID in changed.sorted() {
            let row = reread.rows[rowID]
            // A row rewritten with the values it had is no change.
            if let row, index.fingerprint(of: rowID) == row.fingerprint { continue }
            changes.append((rowID, row.map { ($0.keys, $0.fingerprint) }))
        }
        var index = index
        guard let replaced = index.replace(changes) else { return false }
        // Closures, not key paths: in this generic type a key path literal is instantiated at
        // run time on every call, 8% of a one-row change at a million rows.
        let touched = Set(changes.map { $0.rowID })
        current = index
        let models = plan.loadsObjects ? LoadedObjects(models: reread.models, replacesAll: false) : nil
        post(.rows(touched), objects: models, replaced: replaced)
        return true
    }

    /// Resolves `request` against the schema and reads the whole index (and, without a batch
    /// size, every object) in one snapshot; stops with `CancellationError` once `isCancelled`
    /// says so.
    private func fetch(
        _ request: StoreRequest<M>, isCancelled: (@Sendable () -> Bool)? = nil
    ) throws -> (FetchPlan<M>, ResultIndex, LoadedObjects<M>?) {
        var count = 0
        let registered = store.configuration.collations
        let result = try store.read { db in
            let plan = try FetchPlan(request, db: db, registered: registered, everyObject: keepsEveryObject)
            let index = try plan.fetchIndex(db, rowsRead: &count, isCancelled: isCancelled)
            try trackRelatedRows(of: plan, db)
            guard plan.loadsObjects else { return (plan, index, nil as LoadedObjects<M>?) }
            let byRowID = try db.fetchByRowID(request)
            count += byRowID.count
            return (plan, index, LoadedObjects(models: byRowID, replacesAll: true))
        }
        rowsRead.withLock { $0 += count }
        return result
    }

    // MARK: Delivery

    /// Hands every consumer the step from the last posted results to `current`; a consumer
    /// that has not taken its previous change gets the two merged. `replaced` says where the
    /// changed rows were and are when `current` was made from the last posted results by
    /// `replace` (every change of `current` is posted), so that they are not looked up again.
    private func post(_ changes: ResultChanges, objects: LoadedObjects<M>?, replaced: ReplacedRows? = nil) {
        guard let current, let lastPosted, let plan else { return }
        let changeSet =
            replaced.map { IncrementalChangeSet.make(from: lastPosted, to: current, $0) }
            ?? changes.changeSet(from: lastPosted, to: current)
        if !changeSet.isEmpty { changeSetsPosted.withLock { $0 += 1 } }
        hub.post(
            PendingDelivery(
                base: lastPosted, result: current, table: plan.table, changes: changes, changeSet: changeSet, objects: objects))
        self.lastPosted = current
    }

    /// Runs after every transaction committed before this call has been handled.
    func flush() async {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }
}
