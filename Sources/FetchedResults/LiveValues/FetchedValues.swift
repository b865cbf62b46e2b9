import Foundation
import HashTreeCollections
import SQLiteStoreCore

/// The results of a request at one moment with every object's values: an immutable
/// collection of models in the results' order, with their identities and sections. Each
/// element of ``LiveValues`` holds one; consecutive ones share their storage, so keeping
/// one costs only what later changes replace.
///
/// It is `Sendable`: hand it to any actor, keep it as long as you like.
public struct FetchedValues<M: StoreModel>: RandomAccessCollection, Sendable {
    /// The identities, order and sections.
    public let results: FetchedResultsSnapshot
    /// Every object of `results`, by rowid.
    private var objects: TreeDictionary<Int64, M>

    /// The values of `results`, from `objects`: every object of the results, or `nil` when
    /// the store did not read them. Throws when they are not exactly the results' objects.
    init(results: FetchedResultsSnapshot, objects: LoadedObjects<M>?) throws(FetchedResultsError) {
        guard let objects, objects.replacesAll else { throw Self.inconsistent(results.table) }
        try self.init(results: results, objects: TreeDictionary(objects.models))
    }

    /// No values, from `table`: what an observer shows before its first values.
    init(emptyOf table: String) {
        results = FetchedResultsSnapshot(index: ResultIndex(order: KeyOrder(isAscending: []), isSectioned: false), table: table)
        objects = [:]
    }

    private init(results: FetchedResultsSnapshot, objects: TreeDictionary<Int64, M>) throws(FetchedResultsError) {
        self.results = results
        self.objects = objects
        try checkEveryRowHasItsObject()
    }

    /// These values after `change`, whose base is `results`: the objects it replaces and
    /// those of the rows it changes, in O(k log n) for k changed rows. Throws when the change
    /// does not carry the values of every changed row still in the results.
    func applying(_ change: PendingDelivery<M>) throws(FetchedResultsError) -> FetchedValues {
        let results = change.snapshot
        if let loaded = change.objects, loaded.replacesAll { return try FetchedValues(results: results, objects: loaded) }
        guard let stale = change.changes.staleRows else { throw Self.inconsistent(results.table) }
        var objects = objects
        for rowID in stale {
            objects[rowID] = change.result.contains(rowID) ? change.objects?.models[rowID] : nil
        }
        return try FetchedValues(results: results, objects: objects)
    }

    /// Every row of the results has its object when there are as many objects as rows: rows
    /// leave the objects when they leave the results.
    private func checkEveryRowHasItsObject() throws(FetchedResultsError) {
        guard objects.count == results.numberOfObjects else { throw Self.inconsistent(results.table) }
    }

    private static func inconsistent(_ table: String) -> FetchedResultsError {
        .store(StoreError(code: .internal, message: "the live values of \(table) lost track of their objects"))
    }

    // MARK: Collection

    /// The position of the first object: 0.
    public var startIndex: Int { 0 }

    /// The number of objects in all sections.
    public var endIndex: Int { results.numberOfObjects }

    /// The object at `position`, counting across sections. O(log n).
    public subscript(position: Int) -> M {
        guard let rowID = results.index.rowID(at: position) else { preconditionFailure("position \(position) out of bounds") }
        return object(rowID)
    }

    // MARK: Identities and sections

    /// The sections, in order; one unnamed section when the request has no section key.
    public var sections: [FetchedSection] { results.sections }

    /// The identity of the object at `position`, or `nil` out of bounds.
    public func objectID(at position: Int) -> ObjectID? {
        results.index.rowID(at: position).map { ObjectID(table: results.table, rowID: $0) }
    }

    /// The object at `indexPath`, or `nil` out of bounds. O(log n).
    public func object(at indexPath: IndexPath) -> M? {
        results.index.position(of: indexPath).flatMap(results.index.rowID(at:)).map(object)
    }

    /// The object `id`, or `nil` when it is not in the results.
    public subscript(id: ObjectID) -> M? {
        guard results.indexPath(for: id) != nil else { return nil }
        return objects[id.rowID]
    }

    /// The object of a row of the results, which `checkEveryRowHasItsObject` guarantees.
    private func object(_ rowID: Int64) -> M {
        guard let object = objects[rowID] else { preconditionFailure("row \(rowID) of \(results.table) has no object") }
        return object
    }
}
