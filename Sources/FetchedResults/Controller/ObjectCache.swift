import SQLiteStoreCore

/// The objects a controller has materialized. With a batch size it holds at most `limit`
/// objects, loaded a batch at a time and evicted oldest batch first; without one it holds
/// every object of the results, kept current by the objects each change brings.
struct ObjectCache<M: StoreModel> {
    let batchSize: Int?
    let limit: Int
    private var objects: [Int64: M] = [:]
    private var batches: [[Int64]] = []
    private var oldestBatch = 0

    init(batchSize: Int?) {
        self.batchSize = batchSize.map { max(1, $0) }
        limit = max(1_000, (self.batchSize ?? 0) * 16)
    }

    func object(_ rowID: Int64) -> M? { objects[rowID] }

    /// Replaces everything (a fetch): `all` is every object without a batch size, `nil` with one.
    mutating func reset(_ all: [Int64: M]?) {
        objects = all ?? [:]
        batches = []
        oldestBatch = 0
    }

    /// Forgets stale objects and takes the loaded ones, after a change to `result`.
    mutating func apply(_ changes: ResultChanges, loaded: LoadedObjects<M>?, result: ResultIndex) {
        if let loaded, loaded.replacesAll { return reset(loaded.models) }
        guard let stale = changes.staleRows else { return reset(nil) }
        for rowID in stale {
            objects[rowID] = result.contains(rowID) ? loaded?.models[rowID] : nil
        }
    }

    /// Keeps a batch read from the store, evicting the oldest batches beyond the limit.
    mutating func store(batch rowIDs: [Int64], models: [Int64: M]) {
        for rowID in rowIDs { objects[rowID] = models[rowID] }
        batches.append(rowIDs)
        while objects.count > limit, oldestBatch < batches.count - 1 {
            for rowID in batches[oldestBatch] { objects.removeValue(forKey: rowID) }
            batches[oldestBatch] = []
            oldestBatch += 1
        }
        if oldestBatch > 64 {
            batches.removeFirst(oldestBatch)
            oldestBatch = 0
        }
    }
}
