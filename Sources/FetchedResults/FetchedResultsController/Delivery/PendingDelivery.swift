import SQLiteStoreCore

/// A change one consumer has not taken yet: from the results it has (`base`) to newer ones.
/// Later transactions merge into it, so a busy consumer gets one change set for all of them
/// and holds two result indexes and the changed rowids, never one change set per transaction.
struct PendingDelivery<M: StoreModel>: Sendable {
    var base: ResultIndex
    var result: ResultIndex
    /// The table of `result`.
    var table: String
    var changes: ResultChanges
    /// The step from `base` to `result`; computed when the engine posts a single transaction,
    /// left `nil` after a merge and computed by the consumer when it takes the delivery.
    var changeSet: ChangeSet?
    /// Without a batch size, for the controller's own consumer: the new values of the changed
    /// rows (or of all, when `replacesAll`).
    var objects: LoadedObjects<M>?
    /// Whether this is a stream's first element: the step from no results at all.
    var isInitial = false

    /// The first element of a stream that starts with the current results: the step from a
    /// list with no sections at all to `result`.
    static func initial(_ result: ResultIndex, table: String) -> PendingDelivery {
        let empty = ResultIndex(order: result.order, isSectioned: result.isSectioned)
        return PendingDelivery(
            base: empty, result: result, table: table, changes: .reloaded,
            changeSet: insertion(of: result), objects: nil, isInitial: true)
    }

    /// Inserts every section of `new` into a list with none: the rows of inserted sections
    /// are implied, so this costs O(sections) whatever the number of rows.
    private static func insertion(of new: ResultIndex) -> ChangeSet {
        ChangeSet(sectionInserts: Array(0..<new.sectionCount))
    }

    /// Appends a later delivery, whose base is this one's result.
    mutating func merge(_ later: PendingDelivery) {
        result = later.result
        table = later.table
        changes = changes.union(later.changes)
        objects = objects.map { $0.merged(with: later.objects, changing: later.changes.staleRows) } ?? later.objects
        changeSet = isInitial ? Self.insertion(of: result) : nil
    }

    /// The results it leads to.
    var snapshot: FetchedResultsSnapshot { FetchedResultsSnapshot(index: result, table: table) }

    /// The change set, computed now if a merge left it out: O(k log n) for k changed rows, O(n)
    /// after a re-fetch.
    mutating func resolvedChangeSet() -> ChangeSet {
        if let changeSet { return changeSet }
        let computed = changes.changeSet(from: base, to: result)
        changeSet = computed
        return computed
    }
}

/// Objects read along with a change, for controllers that materialize every object.
struct LoadedObjects<M: StoreModel>: Sendable {
    var models: [Int64: M]
    /// Whether `models` holds every object of the results rather than the changed ones.
    var replacesAll: Bool

    /// These objects followed by `later`'s, which came with changes to the rows `stale` (`nil`:
    /// every row): a stale row that `later` did not read again is gone (it left the results),
    /// so an object set that `replacesAll` keeps holding exactly the results' objects.
    func merged(with later: LoadedObjects<M>?, changing stale: Set<Int64>?) -> LoadedObjects<M>? {
        if let later, later.replacesAll { return later }
        let laterModels = later?.models ?? [:]
        guard let stale else { return LoadedObjects(models: laterModels, replacesAll: false) }
        var models = models
        for rowID in stale where laterModels[rowID] == nil { models.removeValue(forKey: rowID) }
        return LoadedObjects(models: models.merging(laterModels) { $1 }, replacesAll: replacesAll)
    }
}
