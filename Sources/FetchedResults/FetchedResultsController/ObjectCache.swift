import SQLiteStoreCore

/// The objects a controller has materialized, read a batch at a time on first access. With
/// the request's batch size it holds at most `limit` objects, evicting the oldest batch
/// first; without one it reads `defaultBatchSize` at a time and keeps every object it read,
/// kept current by the objects each change brings.
struct ObjectCache<M: StoreModel> {
    /// How many objects are read at once: the request's batch size, else `defaultBatchSize`.
    let batchSize: Int
    /// How many objects are kept with the request's batch size; `nil` without one: all.
    let limit: Int?
    private var objects = RowModels<M>()
    /// The rows read with their included objects, when the request includes any.
    private var rows: [Int64: FetchedRow<M>] = [:]
    private var batches: [[Int64]] = []
    private var oldestBatch = 0

    /// The batch size of a request without one: a screenful of rows or two.
    static var defaultBatchSize: Int { 100 }

    init(batchSize: Int?) {
        self.batchSize = batchSize.map { max(1, $0) } ?? Self.defaultBatchSize
        limit = batchSize.map { max(1_000, max(1, $0) * 16) }
    }

    /// The slot of `rowID`'s object, when it is read: valid until the cache changes.
    @inline(__always)
    func slot(of rowID: Int64) -> Int? { objects.slot(of: rowID) }

    /// The object in `slot`.
    @inline(__always)
    func object(atSlot slot: Int) -> M { objects[slot: slot] }

    /// The rowid of the object in `slot`.
    @inline(__always)
    func rowID(atSlot slot: Int) -> Int64 { objects.rowID(atSlot: slot) }

    /// The row with its included objects, when it was read with them.
    func row(_ rowID: Int64) -> FetchedRow<M>? { rows[rowID] }

    /// Replaces everything (a fetch) with `objects`: every object of a re-read without a batch
    /// size, the first page's of a first fetch, `nil` with a batch size.
    mutating func reset(_ objects: RowModels<M>?) {
        self.objects = objects ?? RowModels()
        rows = [:]
        batches = []
        oldestBatch = 0
    }

    /// Forgets stale objects and takes the loaded ones, after a change to `result`.
    mutating func apply(_ changes: ResultChanges, loaded: LoadedObjects<M>?, result: ResultIndex) {
        if let loaded, loaded.replacesAll { return reset(RowModels(loaded.models)) }
        guard let stale = changes.staleRows else { return reset(nil) }
        for rowID in stale {
            if result.contains(rowID), let model = loaded?.models[rowID] {
                objects.set(model, for: rowID)
            } else {
                objects.remove(rowID)
            }
            rows[rowID] = nil
        }
    }

    /// Keeps a batch of rows read with their included objects, evicting as `store(batch:models:)` does.
    mutating func store(batch rowIDs: [Int64], rows: [Int64: FetchedRow<M>]) {
        for rowID in rowIDs { self.rows[rowID] = rows[rowID] }
        store(batch: rowIDs, models: rows.mapValues(\.model))
    }

    /// Keeps a batch read from the store, evicting the oldest batches beyond the limit (but
    /// not the objects of this batch: a row the changes moved may be in an older one too).
    mutating func store(batch rowIDs: [Int64], models: [Int64: M]) {
        for rowID in rowIDs {
            if let model = models[rowID] { objects.set(model, for: rowID) } else { objects.remove(rowID) }
        }
        guard let limit else { return }
        batches.append(rowIDs)
        guard objects.count > limit else { return }
        let kept = Set(rowIDs)
        while objects.count > limit, oldestBatch < batches.count - 1 {
            for rowID in batches[oldestBatch] where !kept.contains(rowID) {
                objects.remove(rowID)
                rows.removeValue(forKey: rowID)
            }
            batches[oldestBatch] = []
            oldestBatch += 1
        }
        if oldestBatch > 64 {
            batches.removeFirst(oldestBatch)
            oldestBatch = 0
        }
    }
}
