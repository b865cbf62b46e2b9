import Dispatch
import Foundation
import SQLiteStoreCore

/// The live results of a `StoreRequest`: sections, index paths and objects, with a
/// `ChangeSet` for every committed transaction that changes them.
///
/// ```swift
/// let controller = FetchedResultsController(store: store, request: StoreRequest<Item>()
///     .order(Column("category").ascending, Column("title").ascending)
///     .sectioned(by: Column("category")).batchSize(50))
/// controller.didChange = { change in print(change.changeSet) }   // apply it in performBatchUpdates
/// try controller.performFetch()
/// let first = try controller.object(at: IndexPath(row: 0, section: 0))
/// ```
///
/// Changes reach their consumers two ways: ``didChange`` (with ``willChange`` and
/// ``didFail``), the handlers of the controller's owner, called on the main actor as each
/// change is applied; and ``changes(initial:)``, an asynchronous sequence consumed on any
/// actor, of which there may be any number. After
/// `try await store.write { … }`, `try await controller.waitUntilCurrent()` returns once the
/// controller has delivered that commit (`catchUp()` is the synchronous form). When the
/// controller cannot follow the store (the table was dropped, the schema no longer fits the
/// request, a row does not decode, the store failed: see `Store.failure`), it stops: `failure`
/// holds why, `didFail` handlers are called and every `changes()` sequence throws, after the
/// changes that preceded the failure; `performFetch()` starts again (after a store failure, it
/// fails again).
///
/// Design: the controller lives on the main actor, where it is used. An engine on its own
/// serial queue follows the store: for each transaction touching the request's table it
/// re-reads the changed rows by rowid (on a reader) and merges them into an in-memory
/// index of rowids and sort keys, in O(k log n), or re-reads the whole index and diffs by
/// rowid when the change cannot be applied row by row (SQL-fragment predicates, limit or
/// offset, whole-table and external changes). A request that orders, sections or filters by
/// a column of a to-one related row (`Column("name", through: list)`) follows the parent
/// table too: the children of a changed parent are re-read by their foreign key and merged the
/// same way, in O(m log n) for m children, when the link is one hop to the parent's rowid;
/// other links are read again and diffed. The change set is computed on the engine's
/// queue and left in a hub, one pending change per consumer; the controller takes its own
/// on the main actor. If a consumer has not taken its change when the next transaction
/// arrives, the two merge into one: none is lost or reordered, and empty ones are not delivered.
///
/// Objects are read a batch of `batchSize` at a time on first access (synchronously, on a
/// reader) and kept in a bounded cache; without a batch size the first page's objects are
/// read with it, the others a batch of 100 at a time on first access, and every object read
/// is kept, and kept current. Rows are ordered exactly as SQLite orders them: each key with
/// the ordering's collation, else the column's declared one (`BINARY`, `NOCASE`, `RTRIM`, or a
/// Swift collation registered in `StoreConfiguration.collations`); an order the controller
/// cannot reproduce in memory is numbered by SQLite, and then every change reads the results
/// again. After a re-read, only rows whose values changed are reported as updated.
@MainActor
public final class FetchedResultsController<M: StoreModel> {
    /// The store the results come from.
    public let store: Store
    /// The request; change it with `setRequest(_:)`.
    public private(set) var request: StoreRequest<M>
    /// Called before a change is applied to the controller's results.
    public var willChange: (@MainActor () -> Void)?
    /// Called after a change was applied, with its change set and the new results. One
    /// handler, for the controller's owner; other consumers take ``changes(initial:)``.
    public var didChange: (@MainActor (FetchedResultsChange) -> Void)?
    /// Called when the controller stops following the store, with why.
    public var didFail: (@MainActor (FetchedResultsError) -> Void)?
    /// The results as last delivered (empty before `performFetch`).
    public private(set) var results: FetchedResultsSnapshot
    /// Why the controller stopped following the store (its results stay as last delivered),
    /// or `nil` while it follows it. Cleared by a successful `performFetch()`.
    public private(set) var failure: FetchedResultsError?

    private let engine: FetchedResultsEngine<M>
    private var cache: ObjectCache<M>
    private var subscribers: [FetchedResultsSubscriber] = []
    /// While the results are a first page: the rows past it, in its snapshot.
    private var pastFirstPage: RowsPastFirstPage<M>?
    /// Whether `performFetch()` has read the results.
    public private(set) var isFetched = false
    /// For tests: the background read of the next first fetch holds once it has read this
    /// many rows, answering only ``object(at:)``, until `resumeBackgroundRead()`.
    var holdsBackgroundReadAfter: Int?

    /// A controller for `request` over `store`; call `performFetch()` to read the results.
    ///
    /// - Parameters:
    ///   - store: The store whose committed changes the controller follows.
    ///   - request: The results: filter, order, sections and batch size.
    public init(store: Store, request: StoreRequest<M>) {
        self.store = store
        self.request = request
        engine = FetchedResultsEngine(store: store)
        cache = ObjectCache(batchSize: request.batchSize)
        // The request's empty results: no section when sectioned, one empty section otherwise.
        results = FetchedResultsSnapshot(
            index: ResultIndex(
                order: KeyOrder(isAscending: request.orderings.map(\.isAscending)),
                isSectioned: request.sectionKey != nil),
            table: request.tableName)
        engine.hub.setOwnerWake { [weak self] in
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.drain() } }
        }
    }

    deinit {
        engine.release()
    }

    // MARK: Fetching

    /// Reads the first rows of the results and starts following the store's changes; the
    /// rest of the results follow as one change (see <doc:FirstScreen>). Called again (after
    /// a failure, say), it reads the results afresh and publishes the change from the
    /// previous ones.
    ///
    /// Returns once the first ``firstPageSize`` rows are read (with their objects, without a
    /// batch size) on the calling thread, in a read transaction that stays open on a reader to
    /// read the whole index in the background: ``isComplete`` is `false` until that index is delivered as a change
    /// appending the rest, before any later commit. `waitUntilCurrent()` and `catchUp()`
    /// wait for it. A request with a limit or an offset is read whole before returning, and so
    /// is every request of a store that reads on its writer (`Store.inMemory()`), where a read
    /// left open would hold up every write. Meanwhile ``object(at:)`` answers for any index
    /// path of the complete results.
    ///
    /// - Throws: `FetchedResultsError.sectionKeyNotFirstSortKey` when the request sections by
    ///   a key it does not sort by first, `.store` when SQLite fails.
    public func performFetch() throws(FetchedResultsError) {
        guard isFetched else { return try start() }
        try setRequest(request)
    }

    /// How many rows `performFetch()` reads before it returns, the rest being read in the
    /// background: a screenful or two (each row more is read and decoded before the first
    /// screen shows).
    public static var firstPageSize: Int { 64 }

    private func start() throws(FetchedResultsError) {
        try FetchPlan.validate(request)
        let firstPage: FetchedResultsEngine<M>.FirstPage
        do {
            firstPage = try engine.start(request, pageSize: Self.firstPageSize, holdingAfter: holdsBackgroundReadAfter)
        } catch {
            throw FetchedResultsError.wrap(error)
        }
        results = FetchedResultsSnapshot(index: firstPage.index, table: request.tableName)
        cache = ObjectCache(batchSize: request.batchSize)
        cache.reset(firstPage.objects)
        pastFirstPage = firstPage.index.isFirstPage ? firstPage.rest : nil
        isFetched = true
        failure = nil
    }

    /// Replaces the request: reads the new results and publishes the change set from the
    /// old results to the new ones before returning. Identity is (table, rowid): within one
    /// table rows match by rowid (and are updated when their values changed); a request for
    /// another table replaces every section. Objects are read afresh for the new request.
    public func setRequest(_ newRequest: StoreRequest<M>) throws(FetchedResultsError) {
        try FetchPlan.validate(newRequest)
        guard isFetched else {
            request = newRequest
            return
        }
        engine.cancelBuild()
        pastFirstPage = nil
        try onEngine { try $0.replace(with: newRequest) }
        request = newRequest
        failure = nil
        cache = ObjectCache(batchSize: newRequest.batchSize)
        drain()
    }

    /// Ends the hold of `holdsBackgroundReadAfter` (tests).
    func resumeBackgroundRead() { pastFirstPage?.resume() }

    private func onEngine<T>(_ body: (FetchedResultsEngine<M>) throws -> T) throws(FetchedResultsError) -> T {
        do {
            return try engine.queue.sync { try body(engine) }
        } catch {
            throw FetchedResultsError.wrap(error)
        }
    }

    // MARK: Results

    /// The sections, in order; one unnamed section when the request has no section key.
    /// While ``isComplete`` is `false`, the sections of the rows so far: the last may grow and
    /// later ones are not listed yet, though ``object(at:)`` reads their rows.
    public var sections: [FetchedSection] { results.sections }

    /// The number of objects in all sections (so far, while ``isComplete`` is `false`).
    public var numberOfObjects: Int { results.numberOfObjects }

    /// Whether the results hold every row: `false` from a first fetch until the rest of the
    /// first page's read is delivered (see ``performFetch()``).
    public var isComplete: Bool { results.isComplete }

    /// Where the object `id` is, or `nil` when it is not in the results. O(log n).
    public func indexPath(for id: ObjectID) -> IndexPath? { results.indexPath(for: id) }

    /// The object at `indexPath`, read with its batch on first access.
    ///
    /// While ``isComplete`` is `false` it answers for any index path of the complete results,
    /// past the rows and sections delivered so far too, with the row there in the snapshot of
    /// the first page, found by keyset queries without waiting for the rest (see <doc:FirstScreen>).
    ///
    /// Throws `.indexPathOutOfBounds`, `.objectDeleted` when the row was deleted after the
    /// results were delivered (its change set is on its way), or `.store`.
    public func object(at indexPath: IndexPath) throws(FetchedResultsError) -> M {
        // The slot first: loading it may change the cache.
        let slot = try loadedSlot(at: indexPath)
        return cache.object(atSlot: slot)
    }

    /// The row at `indexPath` with the related objects the request includes
    /// (`StoreRequest.including`), read with its batch on first access: one statement for the
    /// batch's rows and one per included relationship, never one per row. Throws what
    /// ``object(at:)`` throws.
    ///
    /// ```swift
    /// let controller = FetchedResultsController(store: store, request: request)
    /// try controller.performFetch()
    /// let first = try controller.row(at: IndexPath(row: 0, section: 0))
    /// print(first.title, first.list?.name ?? "no list", first.tags.map(\.name))
    /// ```
    public func row(at indexPath: IndexPath) throws(FetchedResultsError) -> FetchedRow<M> {
        fetchedRow(atSlot: try loadedSlot(at: indexPath))
    }

    /// The row of the object in the cache's `slot`, with the included objects read with it
    /// (none when the request includes none).
    private func fetchedRow(atSlot slot: Int) -> FetchedRow<M> {
        cache.row(cache.rowID(atSlot: slot)) ?? FetchedRow(model: cache.object(atSlot: slot), related: [:])
    }

    /// The cache's slot of the object at `indexPath`, read with its batch on first access.
    /// (Slots, not the objects: returning a model from code generic over it costs a look-up
    /// of its type's metadata on each call.)
    private func loadedSlot(at indexPath: IndexPath) throws(FetchedResultsError) -> Int {
        if indexPath.count == 2 {
            let (section, row) = (indexPath.section, indexPath.row)
            if let position = results.index.position(section: section, row: row) { return try slot(atPosition: position) }
        }
        guard let pastFirstPage else { throw .indexPathOutOfBounds(indexPath) }
        do {
            return try slot(pastFirstPageAt: indexPath, pastFirstPage)
        } catch {
            throw FetchedResultsError.wrap(error)
        }
    }

    /// The object at `indexPath` past the first page, with its batch (the rows of its section
    /// around it), asked for in the first page's snapshot: the background read answers between
    /// two of its steps, or the complete index once read.
    private func slot(pastFirstPageAt indexPath: IndexPath, _ rest: RowsPastFirstPage<M>) throws -> Int {
        guard indexPath.count == 2, indexPath.section >= 0, indexPath.row >= 0, results.index.isSectioned || indexPath.section == 0
        else { throw FetchedResultsError.indexPathOutOfBounds(indexPath) }
        let batchSize = cache.batchSize
        let first = indexPath.row / batchSize * batchSize
        let rows = try rest.rows(.init(section: indexPath.section, rows: first..<(first + min(batchSize, Int.max - first))))
        let offset = indexPath.row - first
        guard offset < rows.rowIDs.count else { throw FetchedResultsError.indexPathOutOfBounds(indexPath) }
        let rowID = rows.rowIDs[offset]
        if let slot = cache.slot(of: rowID) { return slot }
        // The rows ahead come with their models, but not with their included objects.
        if request.inclusions.isEmpty, let read = rows.models {
            cache.store(batch: rows.rowIDs, models: read)
        } else {
            try readBatch(rows.rowIDs)
        }
        guard let slot = cache.slot(of: rowID) else {
            throw FetchedResultsError.objectDeleted(ObjectID(table: request.tableName, rowID: rowID))
        }
        return slot
    }

    /// Reads the objects of `batch` (with their included objects, when the request includes
    /// any) and keeps them in the cache.
    private func readBatch(_ batch: [Int64]) throws {
        let request = request
        guard !request.inclusions.isEmpty else {
            let models = try store.read { db in try db.fetchModels(M.self, table: request.tableName, rowIDs: batch) }
            engine.rowsRead.withLock { $0 += models.count }
            cache.store(batch: batch, models: models)
            return
        }
        let rows = try store.read { db in try db.fetchRows(request, rowIDs: batch) }
        engine.rowsRead.withLock { $0 += rows.count }
        cache.store(batch: batch, rows: rows)
    }

    /// Every object, in order (reads all the batches not in the cache).
    public var fetchedObjects: [M] {
        get throws(FetchedResultsError) {
            var objects: [M] = []
            objects.reserveCapacity(results.numberOfObjects)
            for position in 0..<results.numberOfObjects {
                let slot = try slot(atPosition: position)
                objects.append(cache.object(atSlot: slot))
            }
            return objects
        }
    }

    /// Every row, in order, with the related objects the request includes (reads all the
    /// batches not in the cache).
    public var fetchedRows: [FetchedRow<M>] {
        get throws(FetchedResultsError) {
            var rows: [FetchedRow<M>] = []
            rows.reserveCapacity(results.numberOfObjects)
            for position in 0..<results.numberOfObjects { rows.append(fetchedRow(atSlot: try slot(atPosition: position))) }
            return rows
        }
    }

    /// How many rows the controller has read from SQLite so far (index rows, re-read rows and objects).
    public var rowsRead: Int { engine.rowsRead.withLock { $0 } }

    /// How many non-empty change sets the controller's engine has posted, before any merge
    /// for a busy consumer: one per committed transaction that changes the results (tests).
    var changeSetsPosted: Int { engine.changeSetsPosted.withLock { $0 } }

    /// The cache's slot of the object at `position`, read with its batch on first access.
    private func slot(atPosition position: Int) throws(FetchedResultsError) -> Int {
        // `results.index` is read in place: a copy of the index (a retain of each of its
        // arrays, then a release) was about a seventh of `object(at:)`, by `perf`.
        guard let rowID = results.index.rowID(at: position) else { throw .indexPathOutOfBounds(IndexPath(row: position, section: 0)) }
        if let slot = cache.slot(of: rowID) { return slot }
        let batchSize = cache.batchSize
        let start = position / batchSize * batchSize
        do {
            try readBatch(results.index.rowIDs(in: start..<min(start + batchSize, results.index.count)))
        } catch {
            throw FetchedResultsError.wrap(error)
        }
        guard let slot = cache.slot(of: rowID) else { throw .objectDeleted(ObjectID(table: request.tableName, rowID: rowID)) }
        return slot
    }

    // MARK: Changes

    /// Calls `didChange` after each change and `didFail` when the controller stops following
    /// the store, on the main actor, until the returned subscription is cancelled or released:
    /// for `FetchedDataSource`, which takes each change synchronously with the controller and
    /// leaves ``didChange`` to the app. Any number of subscribers may coexist with `didChange`.
    package func subscribe(
        didFail: (@MainActor (FetchedResultsError) -> Void)? = nil,
        didChange: @escaping @MainActor (FetchedResultsChange) -> Void
    ) -> FetchedResultsSubscription {
        let token = FetchedResultsSubscription()
        subscribers.removeAll { !$0.isActive }
        subscribers.append(FetchedResultsSubscriber(token: token, didChange: didChange, didFail: didFail))
        return token
    }

    /// The changes from now on, as an asynchronous sequence to consume on any actor; see
    /// ``FetchedResultsChanges`` for coalescing, isolation and how it ends and fails.
    ///
    /// The sequence starts the controller: its first element is taken after a fetch, when
    /// the controller has not fetched yet. With `initial`, it starts with the current results,
    /// in an element marked `isInitial`.
    public nonisolated func changes(initial: Bool = false) -> FetchedResultsChanges {
        FetchedResultsChanges(
            hub: engine.hub, initial: initial,
            fetchIfNeeded: { @MainActor [weak self] () throws(FetchedResultsError) in
                if let self, !self.isFetched { try self.performFetch() }
            },
            deliverToOwner: { [weak self] owners in
                if let owners { self?.deliver(owners) }
            })
    }

    /// Returns once the controller has delivered every transaction committed before the call
    /// (to its handlers, and to its `changes()` sequences, whose next element holds it), so
    /// that `try await store.write { … }` followed by this shows the write.
    ///
    /// Commits of other connections and processes count once the store has noticed them
    /// (`store.checkForExternalChanges()` makes it look now). Throws ``failure`` when the
    /// controller has stopped following the store.
    public func waitUntilCurrent() async throws(FetchedResultsError) {
        await engine.flush()
        try deliverPending()
    }

    /// The synchronous form of ``waitUntilCurrent()``: blocks the main thread until the
    /// controller's engine has handled every transaction committed before the call (one
    /// re-read of the changed rows, in O(k log n)), then delivers the change. For code that
    /// wrote with the synchronous `store.write { … }` and needs the results now.
    public func catchUp() throws(FetchedResultsError) {
        engine.queue.sync {}
        try deliverPending()
    }

    /// ``waitUntilCurrent()`` for tests that check ``failure`` themselves.
    func waitForChanges() async {
        try? await waitUntilCurrent()
    }

    private func deliverPending() throws(FetchedResultsError) {
        drain()
        if let failure { throw failure }
    }

    /// Takes what the hub holds for the controller: its change, then its failure.
    private func drain() {
        while true {
            switch engine.hub.take(DeliveryHub<M>.owner) {
            case .change(let pending): deliver(pending)
            case .failure(let error): fail(error)
            case .finished, .nothing: return
            }
        }
    }

    /// Applies one change, then tells `willChange`/`didChange` and the subscribers.
    private func deliver(_ pending: PendingDelivery<M>) {
        var pending = pending
        let changeSet = pending.resolvedChangeSet()
        let notifies = !changeSet.isEmpty
        if notifies { willChange?() }
        results = pending.snapshot
        if results.isComplete { pastFirstPage = nil }
        cache.apply(pending.changes, loaded: pending.objects, result: pending.result)
        guard notifies else { return }
        let change = FetchedResultsChange(changeSet: changeSet, results: results)
        didChange?(change)
        subscribers.removeAll { !$0.isActive }
        for subscriber in subscribers where subscriber.isActive { subscriber.didChange(change) }
    }

    private func fail(_ error: FetchedResultsError) {
        failure = error
        didFail?(error)
        subscribers.removeAll { !$0.isActive }
        for subscriber in subscribers where subscriber.isActive { subscriber.didFail?(error) }
    }
}
