import Dispatch
import SQLiteStoreCore

/// Watches a set of objects of one table and reports, for every committed transaction
/// that touches some of them, their new values and which of them were deleted.
///
/// ```swift
/// let watcher = ChangeWatcher<Item>(store: store, watching: [item.objectID!], handler: .mainActor { event in
///     for (id, item) in event.updated { print(id, item.title) }
/// })
/// watcher.watch([other.objectID!])         // the set can grow…
/// for await event in watcher.events() {    // …and events also come as a stream
///     print(event.updated.count, event.deleted.count)
/// }
/// ```
/// The new values of all the touched objects are read at once, in one snapshot taken at or
/// after the commit, on a reader connection; a transaction that only deletes watched objects
/// reads nothing (to follow deletions alone, read ``Event/deleted``). A transaction that
/// touches none of the watched objects costs one set lookup per changed row (or per watched
/// object, if fewer) and no read. After a whole-table change (a schema change, another
/// process's write) every watched object is re-read, and those gone are reported deleted.
/// Deleted objects stop being watched: SQLite may reuse a deleted rowid.
///
/// Transactions are handled one at a time, in commit order, on a private serial queue. Keep
/// the watcher: releasing it ends the watch.
public final class ChangeWatcher<M: StoreModel>: Sendable {
    /// What one transaction did to the watched objects.
    public struct Event: Sendable {
        /// The objects inserted or updated, with their values after the transaction.
        public var updated: [ObjectID: M]
        /// The objects deleted.
        public var deleted: Set<ObjectID>
        /// The error that prevented reading the new values, if any; `updated` is then empty
        /// and `unread` lists the objects whose values are unknown. The store's failure
        /// (`Store.failure`) comes as the watcher's last event, with every watched object unread.
        public var error: StoreError?
        /// The objects that were written but could not be read because of `error`.
        public var unread: Set<ObjectID>
    }

    private let watched: Locked<WatchedObjects>
    private let fanOut: EventFanOut<Event>
    private let observation: ChangeObservation

    /// Watches `ids` (objects of `table`, `M`'s table by default) in `store`; events go to
    /// `handler` (if any) and to the streams of `events()`.
    public init(
        store: Store, table: String = M.tableName, watching ids: some Sequence<ObjectID> = [],
        handler: EventHandler<Event>? = nil
    ) {
        var initial = WatchedObjects(table: table)
        _ = initial.insert(ids)
        let watched = Locked(initial)
        let fanOut = EventFanOut(handler: handler)
        self.watched = watched
        self.fanOut = fanOut
        let fail: @Sendable (StoreError) -> Void = { error in
            fanOut.finish(with: Event(updated: [:], deleted: [], error: error, unread: watched.withLock { $0.ids }))
        }
        let queue = DispatchQueue(label: "SQLiteStore.ChangeWatcher.\(table)")
        observation = store.observeChanges(in: [table], on: queue, didFail: fail) { [weak store] changes in
            let touched = watched.withLock { $0.touched(by: changes) }
            guard !touched.isEmpty, let store else { return }
            let event = Self.event(for: touched, table: table, in: store)
            watched.withLock { $0.remove(event.deleted) }
            fanOut.send(event)
        }
    }

    deinit { observation.cancel() }

    /// The objects watched now.
    public var watchedIDs: Set<ObjectID> { watched.withLock { $0.ids } }

    /// Adds objects to watch; returns those of another table, which are not watched.
    @discardableResult
    public func watch(_ ids: some Sequence<ObjectID>) -> [ObjectID] { watched.withLock { $0.insert(ids) } }

    /// Stops watching objects; an event being prepared may still mention them.
    public func unwatch(_ ids: some Sequence<ObjectID>) { watched.withLock { $0.remove(ids) } }

    /// The events of transactions committed from now on, in commit order. The stream buffers
    /// without bound and ends when its consuming task is cancelled, when the watcher is
    /// released, or after the store's failure (its last event).
    public func events() -> AsyncStream<Event> { fanOut.stream() }

    private static func event(for touched: WatchedObjects.Touched, table: String, in store: Store) -> Event {
        var deleted = Set(touched.deleted.values)
        guard !touched.written.isEmpty else { return Event(updated: [:], deleted: deleted, error: nil, unread: []) }
        do {
            let models = try store.read { db in try db.fetchModels(M.self, table: table, rowIDs: touched.written.keys) }
            var updated: [ObjectID: M] = [:]
            for (rowID, id) in touched.written {
                if let model = models[rowID] { updated[id] = model } else { deleted.insert(id) }
            }
            return Event(updated: updated, deleted: deleted, error: nil, unread: [])
        } catch {
            let storeError = error as? StoreError ?? StoreError(code: .error, message: "\(error)")
            return Event(updated: [:], deleted: deleted, error: storeError, unread: Set(touched.written.values))
        }
    }
}
