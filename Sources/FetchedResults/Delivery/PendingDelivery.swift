import SQLiteStoreCore

/// A change the controller's consumer has not taken yet: from the results it has (`base`)
/// to newer ones. Later transactions merge into it, so a busy consumer gets one change set.
struct PendingDelivery<M: StoreModel>: Sendable {
    var base: ResultIndex
    var result: ResultIndex
    var changes: ResultChanges
    var changeSet: ChangeSet
    /// Without a batch size: the new values of the changed rows (or of all, when `replacesAll`).
    var objects: LoadedObjects<M>?
}

/// Objects read along with a change, for controllers that materialize every object.
struct LoadedObjects<M: StoreModel>: Sendable {
    var models: [Int64: M]
    /// Whether `models` holds every object of the results rather than the changed ones.
    var replacesAll: Bool

    /// These objects followed by `later`'s.
    func merged(with later: LoadedObjects<M>?) -> LoadedObjects<M>? {
        guard let later else { return self }
        if later.replacesAll { return later }
        return LoadedObjects(models: models.merging(later.models) { $1 }, replacesAll: replacesAll)
    }
}

/// What the engine hands to the consumer, under a lock.
struct Mailbox<M: StoreModel>: Sendable {
    var pending: PendingDelivery<M>?
    /// Schedules the consumer's `drain`, set by the consumer.
    var notify: (@Sendable () -> Void)?
    /// The last failure to follow the store's changes; the next transaction re-reads everything.
    var error: FetchedResultsError?
}
