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
/// Design: the controller lives on the main actor, where it is used. An engine on its own
/// serial queue follows the store: for each transaction touching the request's table it
/// re-reads the changed rows by rowid (on a reader) and merges them into an in-memory
/// index of rowids and sort keys, in O(k log n), or re-reads the whole index and diffs by
/// rowid when the change cannot be applied row by row (SQL-fragment predicates, limit or
/// offset, whole-table and external changes). The change set is computed on the engine's
/// queue and left in a mailbox; the controller takes it on the main actor. If the main
/// actor has not taken a change set when the next transaction arrives, the two merge into
/// one: none is lost or reordered, and empty ones are not delivered.
///
/// Objects are read a batch of `batchSize` at a time on first access (synchronously, on a
/// reader) and kept in a bounded cache; without a batch size every object is read with the
/// results and kept current. Rows are ordered exactly as SQLite orders them: each key with
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
    /// Called after a change was applied, with its change set and the new results.
    public var didChange: (@MainActor (FetchedResultsChange) -> Void)?
    /// The results as last delivered (empty before `performFetch`).
    public private(set) var results: FetchedResultsSnapshot

    private let engine: FetchedResultsEngine<M>
    private var cache: ObjectCache<M>
    private let fanOut = EventFanOut<FetchedResultsChange>(handler: nil)
    private var isFetched = false

    /// A controller for `request` over `store`; call `performFetch()` to read the results.
    public init(store: Store, request: StoreRequest<M>) {
        self.store = store
        self.request = request
        engine = FetchedResultsEngine(store: store)
        cache = ObjectCache(batchSize: request.batchSize)
        results = FetchedResultsSnapshot(index: ResultIndex(order: KeyOrder(isAscending: []), isSectioned: false),
                                         table: request.tableName)
        engine.mailbox.withLock { mailbox in
            mailbox.notify = { [weak self] in
                DispatchQueue.main.async { MainActor.assumeIsolated { self?.drain() } }
            }
        }
    }

    // MARK: Fetching

    /// Reads the results and starts following the store's changes. Called again, it reads
    /// the results afresh and publishes the change from the previous ones.
    ///
    /// Throws `FetchedResultsError.sectionKeyNotFirstSortKey` when the request sections by
    /// a key it does not sort by first, `.store` when SQLite fails.
    public func performFetch() throws(FetchedResultsError) {
        guard isFetched else { return try start() }
        try setRequest(request)
    }

    private func start() throws(FetchedResultsError) {
        try FetchPlan.validate(request)
        let (index, objects) = try onEngine { [request] in try $0.start(request) }
        results = FetchedResultsSnapshot(index: index, table: request.tableName)
        cache = ObjectCache(batchSize: request.batchSize)
        cache.reset(objects)
        isFetched = true
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
        try onEngine { try $0.replace(with: newRequest) }
        request = newRequest
        cache = ObjectCache(batchSize: newRequest.batchSize)
        drain()
    }

    private func onEngine<T>(_ body: (FetchedResultsEngine<M>) throws -> T) throws(FetchedResultsError) -> T {
        do {
            return try engine.queue.sync { try body(engine) }
        } catch {
            throw FetchedResultsError.wrap(error)
        }
    }

    // MARK: Results

    /// The sections, in order; one unnamed section when the request has no section key.
    public var sections: [FetchedSection] { results.sections }

    /// The number of objects in all sections.
    public var numberOfObjects: Int { results.numberOfObjects }

    /// Where the object `id` is, or `nil` when it is not in the results. O(log n).
    public func indexPath(for id: ObjectID) -> IndexPath? { results.indexPath(for: id) }

    /// The object at `indexPath`, read with its batch on first access.
    ///
    /// Throws `.indexPathOutOfBounds`, `.objectDeleted` when the row was deleted after the
    /// results were delivered (its change set is on its way), or `.store`.
    public func object(at indexPath: IndexPath) throws(FetchedResultsError) -> M {
        guard let position = results.index.position(of: indexPath) else { throw .indexPathOutOfBounds(indexPath) }
        return try object(atPosition: position)
    }

    /// Every object, in order (reads all the batches not in the cache).
    public var fetchedObjects: [M] {
        get throws(FetchedResultsError) {
            var objects: [M] = []
            objects.reserveCapacity(results.numberOfObjects)
            for position in 0..<results.numberOfObjects { objects.append(try object(atPosition: position)) }
            return objects
        }
    }

    /// How many rows the controller has read from SQLite so far (index rows, re-read rows and objects).
    public var rowsRead: Int { engine.rowsRead.withLock { $0 } }

    /// The last failure to follow the store, if any; the controller then re-reads its results
    /// at the next transaction.
    public var lastError: FetchedResultsError? { engine.mailbox.withLock { $0.error } }

    private func object(atPosition position: Int) throws(FetchedResultsError) -> M {
        let index = results.index
        guard let rowID = index.rowID(at: position) else { throw .indexPathOutOfBounds(IndexPath(row: position, section: 0)) }
        if let object = cache.object(rowID) { return object }
        let id = ObjectID(table: request.tableName, rowID: rowID)
        guard let batchSize = cache.batchSize else { throw .objectDeleted(id) }
        let start = position / batchSize * batchSize
        let batch = index.rowIDs(in: start..<min(start + batchSize, index.count))
        let models: [Int64: M]
        do {
            models = try store.read { [request] db in try db.fetchModels(M.self, table: request.tableName, rowIDs: batch) }
        } catch {
            throw FetchedResultsError.wrap(error)
        }
        engine.rowsRead.withLock { $0 += models.count }
        cache.store(batch: batch, models: models)
        guard let object = models[rowID] else { throw .objectDeleted(id) }
        return object
    }

    // MARK: Changes

    /// The changes delivered from now on, each with the results it leads to, in order, the
    /// same ones `didChange` gets. The stream buffers without bound and ends when its
    /// consuming task is cancelled or the controller is released.
    public func changes() -> AsyncStream<FetchedResultsChange> { fanOut.stream() }

    /// Takes the pending change, if any, and applies it.
    private func drain() {
        guard let delivery = engine.mailbox.withLock({ mailbox in
            defer { mailbox.pending = nil }
            return mailbox.pending
        }) else { return }
        let notifies = !delivery.changeSet.isEmpty
        if notifies { willChange?() }
        results = FetchedResultsSnapshot(index: delivery.result, table: request.tableName)
        cache.apply(delivery.changes, loaded: delivery.objects, result: delivery.result)
        guard notifies else { return }
        let change = FetchedResultsChange(changeSet: delivery.changeSet, results: results)
        didChange?(change)
        fanOut.send(change)
    }

    /// Waits until every transaction committed before the call is reflected in the results.
    func waitForChanges() async {
        await engine.flush()
        drain()
    }
}
