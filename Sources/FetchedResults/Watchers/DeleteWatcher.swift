import SQLiteStoreCore

/// Watches a set of objects of one table and reports, for every committed transaction
/// that deletes some of them, which ones.
///
/// ```swift
/// let watcher = DeleteWatcher(store: store, table: "item", watching: ids, handler: .mainActor { event in
///     close(event.deleted)
/// })
/// ```
/// It never reads the store for row-level changes: a transaction costs one set lookup per
/// deleted row (or per watched object, if fewer). After a whole-table change (a schema
/// change, another process's write) it checks which watched objects still exist, in one
/// query. Deleted objects stop being watched: SQLite may reuse a deleted rowid. Keep the
/// watcher: releasing it ends the watch.
public final class DeleteWatcher: Sendable {
    /// What one transaction did to the watched objects.
    public struct Event: Sendable {
        /// The objects deleted.
        public var deleted: Set<ObjectID>
        /// The error that prevented checking a whole-table change, if any; `deleted` then
        /// holds only the deletions known row by row. The store's failure (`Store.failure`)
        /// comes as the watcher's last event, with nothing deleted.
        public var error: StoreError?
    }

    private let core: ObjectWatch<Event>

    /// Watches `ids` (objects of `table`) in `store`; events go to `handler` (if any) and
    /// to the streams of `events()`.
    public init(
        store: Store, table: String, watching ids: some Sequence<ObjectID> = [],
        handler: EventHandler<Event>? = nil
    ) {
        core = ObjectWatch(
            store: store, table: table, ids: ids, handler: handler,
            deletedIDs: { Array($0.deleted) },
            failureEvent: { error, _ in Event(deleted: [], error: error) }
        ) { touched, store in
            Self.event(for: touched, table: table, in: store)
        }
    }

    /// The objects watched now.
    public var watchedIDs: Set<ObjectID> { core.watchedIDs }

    /// Adds objects to watch; returns those of another table, which are not watched.
    @discardableResult
    public func watch(_ ids: some Sequence<ObjectID>) -> [ObjectID] { core.watch(ids) }

    /// Stops watching objects; an event being prepared may still mention them.
    public func unwatch(_ ids: some Sequence<ObjectID>) { core.unwatch(ids) }

    /// The events of transactions committed from now on, in commit order. The stream buffers
    /// without bound and ends when its consuming task is cancelled, when the watcher is
    /// released, or after the store's failure (its last event).
    public func events() -> AsyncStream<Event> { core.events() }

    private static func event(for touched: WatchedObjects.Touched, table: String, in store: Store) -> Event? {
        var deleted = Set(touched.deleted.values)
        var failure: StoreError?
        if touched.isWholeTable {
            do {
                let existing = try store.read { db in try db.existingRowIDs(in: table, among: touched.written.keys) }
                for (rowID, id) in touched.written where !existing.contains(rowID) { deleted.insert(id) }
            } catch {
                failure = error as? StoreError ?? StoreError(code: .error, message: "\(error)")
            }
        }
        return deleted.isEmpty && failure == nil ? nil : Event(deleted: deleted, error: failure)
    }
}
