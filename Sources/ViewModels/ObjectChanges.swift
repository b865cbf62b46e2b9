import Store

/// The states of one stored object after each committed transaction that may have changed
/// it, in commit order: the object as it is then, or `nil` once it is gone.
///
/// Built on `Store.changes(in:)`, filtered by `StoreChanges.contains(_:)`, with the row
/// re-read by id, so transactions that touch other rows of the table cost a set lookup.
/// The store is held weakly.
struct ObjectChanges<M: Model> {
    private weak var store: Store?
    private let objectID: ObjectID
    private var transactions: AsyncStream<StoreChanges>.AsyncIterator

    /// Starts listening now: every transaction committed after this call is seen.
    init(store: Store, objectID: ObjectID) {
        self.store = store
        self.objectID = objectID
        transactions = store.changes(in: [objectID.table]).makeAsyncIterator()
    }

    /// Reads the object now, in the store's latest committed state.
    static func read(_ objectID: ObjectID, in store: Store) throws -> M? {
        try store.read { db in try db.fetchOne(M.self, id: objectID.rowID) }
    }

    /// The object's state after the next transaction that may have changed it, or `nil`
    /// when the task is cancelled. Runs on the caller's actor.
    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Result<M?, any Error>? {
        while let transaction = await transactions.next(isolation: actor) {
            guard transaction.contains(objectID) else { continue }
            guard let store else { return .failure(StoreViewModelError.storeReleased) }
            let rowID = objectID.rowID
            do {
                return .success(try await store.read { db in try db.fetchOne(M.self, id: rowID) })
            } catch {
                return .failure(error)
            }
        }
        return nil
    }
}
