import Dispatch
import SQLiteStoreCore

/// The machinery `ChangeWatcher` and `DeleteWatcher` share: the watched set, the
/// subscription to the store's changes of one table, and the delivery of events.
///
/// Transactions are handled one at a time, in commit order, on a private serial queue;
/// `makeEvent` runs there and may read the store (on a reader, never on the writer).
/// Objects reported deleted stop being watched, since SQLite may reuse their rowids. The
/// store's failure (`Store.failure`) becomes the last event, `failureEvent`, which ends the watch.
final class ObjectWatch<Event: Sendable>: Sendable {
    typealias MakeEvent = @Sendable (WatchedObjects.Touched, Store) -> Event?

    let table: String
    private let watched: Locked<WatchedObjects>
    private let fanOut: EventFanOut<Event>
    private let observation: ChangeObservation

    init(
        store: Store, table: String, ids: some Sequence<ObjectID>, handler: EventHandler<Event>?,
        deletedIDs: @escaping @Sendable (Event) -> [ObjectID],
        failureEvent: @escaping @Sendable (StoreError, _ watched: Set<ObjectID>) -> Event,
        makeEvent: @escaping MakeEvent
    ) {
        self.table = table
        var initial = WatchedObjects(table: table)
        _ = initial.insert(ids)
        let watched = Locked(initial)
        let fanOut = EventFanOut(handler: handler)
        self.watched = watched
        self.fanOut = fanOut
        let queue = DispatchQueue(label: "SQLiteStore.ObjectWatch.\(table)")
        let fail: @Sendable (StoreError) -> Void = { error in
            fanOut.finish(with: failureEvent(error, watched.withLock { $0.ids }))
        }
        observation = store.observeChanges(in: [table], on: queue, didFail: fail) { [weak store] changes in
            let touched = watched.withLock { $0.touched(by: changes) }
            guard !touched.isEmpty, let store, let event = makeEvent(touched, store) else { return }
            watched.withLock { $0.remove(deletedIDs(event)) }
            fanOut.send(event)
        }
    }

    deinit { observation.cancel() }

    var watchedIDs: Set<ObjectID> { watched.withLock { $0.ids } }

    func watch(_ ids: some Sequence<ObjectID>) -> [ObjectID] { watched.withLock { $0.insert(ids) } }

    func unwatch(_ ids: some Sequence<ObjectID>) { watched.withLock { $0.remove(ids) } }

    func events() -> AsyncStream<Event> { fanOut.stream() }
}
