import SQLiteStoreCore
import SQLiteStoreResults

/// The states of one stored object after each committed transaction that changed it, in
/// commit order: the object as it is then, or `nil` once it is gone.
///
/// A thin reading of a `ChangeWatcher` of that one object: transactions that touch other
/// rows cost the watcher's set lookup and no read. The watch lasts as long as this value.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct ObjectChanges<M: StoreModel> {
    private let objectID: ObjectID
    private let watcher: ChangeWatcher<M>
    private var events: AsyncStream<ChangeWatcher<M>.Event>.AsyncIterator

    /// Starts watching now: every transaction committed after this call is seen.
    init(store: Store, objectID: ObjectID) {
        self.objectID = objectID
        watcher = ChangeWatcher(store: store, table: objectID.table, watching: [objectID])
        events = watcher.events().makeAsyncIterator()
    }

    /// Reads the object now, in the store's latest committed state.
    static func read(_ objectID: ObjectID, in store: Store) throws -> M? {
        try store.read { db in try db.fetchOne(M.self, rowID: objectID.rowID) }
    }

    /// The object's state after the next transaction that changed it, or `nil` when the
    /// task is cancelled. Runs on the caller's actor.
    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Result<M?, any Error>? {
        while let event = await events.next(isolation: actor) {
            if let state = event.state(of: objectID) { return state }
        }
        return nil
    }
}

extension ChangeWatcher.Event {
    /// What the transaction did to the object `id`: its new value, `nil` when it was deleted,
    /// the error that kept it from being read, or `nil` (no result) when it did not touch it.
    func state(of id: ObjectID) -> Result<M?, any Error>? {
        if deleted.contains(id) { return .success(nil) }
        if let object = updated[id] { return .success(object) }
        if let error, unread.contains(id) { return .failure(error) }
        return nil
    }
}
