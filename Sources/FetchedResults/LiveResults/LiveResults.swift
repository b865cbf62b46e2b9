import Foundation
import Observation
import SQLiteStoreCore

/// The live results of a request as an observable object, for a SwiftUI view, an
/// `@Observable` view model or a UIKit controller: sections, count, objects by position or
/// by identity (read a batch at a time), the last change set and the failure, if any.
///
/// ```swift
/// @MainActor @Observable final class ShoppingList {
///     let items: LiveResults<Item>
///     init(store: Store) {
///         items = LiveResults(StoreRequest<Item>().order(Column("title").ascending), in: store)
///     }
/// }
/// // In a view: ForEach(0..<list.items.count, id: \.self) { Text(list.items[$0]?.title ?? "") }
/// ```
///
/// Observation is precise and happens once per delivered change (one transaction, or
/// several merged while the main actor was busy), whatever the number of rows it touches:
/// - `count`, `sections`, `results`, `objectID(at:)` depend on the order and membership of
///   the rows: a change that inserts, deletes or moves rows notifies them; one that only
///   updates rows in place does not.
/// - `self[id]` depends on that object alone; `self[position]` and `object(at:)` on the
///   order and on that object. Reading one object never makes a view depend on the others.
/// - `lastChange` depends on every change; `failure` on failures.
///
/// The results are fetched at the first read, not at initialization, so an instance that is
/// made and dropped (a SwiftUI view's `@State` initial value, made at every view update)
/// costs nothing. Changes are delivered on the main actor by the ``controller``, which you may
/// use directly (its `changes()` sequence, `waitUntilCurrent()`).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
public final class LiveResults<M: StoreModel>: Observable {
    /// The controller that follows the store.
    public let controller: FetchedResultsController<M>

    private let registrar = ObservationRegistrar()
    private var subscription: FetchedResultsSubscription?
    private var storedLastChange: ChangeSet?
    private var storedFailure: FetchedResultsError?
    /// The results the observers saw before the change being delivered.
    private var shown: FetchedResultsSnapshot
    /// The objects whose observation key was ever read: an insert notifies only these.
    private var observedIDs: Set<ObjectID> = []

    /// The live results of `request` in `store`, fetched at the first read.
    public convenience init(_ request: StoreRequest<M>, in store: Store) {
        self.init(controller: FetchedResultsController(store: store, request: request))
    }

    /// The live results of `controller`, fetched at the first read unless it has fetched already.
    public init(controller: FetchedResultsController<M>) {
        self.controller = controller
        shown = controller.results
    }

    // MARK: Reading

    /// The results' identities and order.
    public var results: FetchedResultsSnapshot {
        access(Self.structure)
        return controller.results
    }

    /// The sections, in order; one unnamed section when the request has no section key.
    public var sections: [FetchedSection] { results.sections }

    /// The number of objects in all sections (so far, while ``isComplete`` is `false`).
    public var count: Int { results.numberOfObjects }

    /// Whether the results hold every row: `false` while the first fetch's first page is
    /// shown and the rest is read in the background; it comes as one change appending it.
    public var isComplete: Bool { results.isComplete }

    /// Whether there are no objects.
    public var isEmpty: Bool { count == 0 }

    /// The identity of the object at `position` (counting across sections), or `nil` out of bounds.
    public func objectID(at position: Int) -> ObjectID? {
        let results = results
        return results.index.rowID(at: position).map { ObjectID(table: results.table, rowID: $0) }
    }

    /// The object at `position` (counting across sections), read with its batch on first
    /// access; `nil` when out of bounds or unreadable (see `failure` and `object(at:)`).
    public subscript(position: Int) -> M? {
        guard let id = objectID(at: position) else { return nil }
        return self[id]
    }

    /// The row at `position` (counting across sections) with the related objects the request
    /// includes (`StoreRequest.including`), read with its batch on first access; `nil` when
    /// out of bounds or unreadable. It depends on that row alone, which a change to one of its
    /// included objects updates.
    public func row(at position: Int) -> FetchedRow<M>? {
        guard let id = objectID(at: position) else { return nil }
        startIfNeeded()
        access(object: id)
        guard let indexPath = controller.indexPath(for: id) else { return nil }
        return try? controller.row(at: indexPath)
    }

    /// The object `id`, or `nil` when it is not in the results.
    public subscript(id: ObjectID) -> M? {
        startIfNeeded()
        access(object: id)
        guard let indexPath = controller.indexPath(for: id) else { return nil }
        return try? controller.object(at: indexPath)
    }

    /// The object at `indexPath`, read with its batch on first access; throws what the
    /// controller's `object(at:)` throws. While ``isComplete`` is `false`, an index path past
    /// the rows delivered so far reads the row there in the complete results.
    public func object(at indexPath: IndexPath) throws(FetchedResultsError) -> M {
        guard let id = results.objectID(at: indexPath) else { return try controller.object(at: indexPath) }
        access(object: id)
        return try controller.object(at: indexPath)
    }

    /// The change set of the last delivered change, from the results before it to `results`.
    public var lastChange: ChangeSet? {
        startIfNeeded()
        access(\.lastChangeKey)
        return storedLastChange
    }

    /// Why the results stopped following the store (they stay as last delivered), or `nil`.
    public var failure: FetchedResultsError? {
        startIfNeeded()
        access(\.failureKey)
        return storedFailure
    }

    /// Replaces the request; observers see the change from the old results to the new ones.
    public func setRequest(_ request: StoreRequest<M>) {
        startIfNeeded()
        do {
            try controller.setRequest(request)
        } catch {
            failed(error)
        }
    }

    // MARK: Delivery

    private func startIfNeeded() {
        guard subscription == nil else { return }
        subscription = controller.subscribe(didFail: { [weak self] error in self?.failed(error) }) { [weak self] change in
            self?.changed(change)
        }
        defer { shown = controller.results }
        guard !controller.isFetched else { return }
        do {
            try controller.performFetch()
        } catch {
            storedFailure = error
        }
    }

    /// One change, one notification: every key the change touches is marked before the
    /// state changes and after, together.
    private func changed(_ change: FetchedResultsChange) {
        let keys = Self.keys(touchedBy: change.changeSet, old: shown, new: change.results, observed: observedIDs)
        for key in keys { registrar.willSet(self, keyPath: key) }
        storedLastChange = change.changeSet
        shown = change.results
        for key in keys { registrar.didSet(self, keyPath: key) }
    }

    private func failed(_ error: FetchedResultsError) {
        registrar.withMutation(of: self, keyPath: \.failureKey) { storedFailure = error }
    }

    /// The observation keys a change touches: the last change always, the order when rows
    /// come, go or move, and each object inserted, deleted or changed. Inserted objects are
    /// looked for among the `observed` ones when those are fewer (the rest of a first page).
    private static func keys(
        touchedBy changeSet: ChangeSet, old: FetchedResultsSnapshot,
        new: FetchedResultsSnapshot, observed: Set<ObjectID>
    ) -> [KeyPath<LiveResults, Int>] {
        var keys: [KeyPath<LiveResults, Int>] = [\.lastChangeKey]
        let reorders =
            !changeSet.sectionDeletes.isEmpty || !changeSet.sectionInserts.isEmpty || !changeSet.deletes.isEmpty
            || !changeSet.insertedRows.isEmpty || !changeSet.moves.isEmpty
        if reorders { keys.append(structure) }
        // Only the sections the change inserts or deletes are counted: O(changes), not O(sections).
        let oldPaths =
            changeSet.deletes + changeSet.updates
            + changeSet.sectionDeletes.flatMap { section in
                (0..<old.numberOfObjects(inSection: section)).map { IndexPath(row: $0, section: section) }
            }
        let newPaths = changeSet.moves.filter { $0.isChanged }.map { $0.to }
        let ids = Set(
            oldPaths.compactMap(old.objectID(at:)) + newPaths.compactMap(new.objectID(at:))
                + insertedIDs(changeSet, new: new, observed: observed))
        keys += ids.map { \LiveResults.[observedObject: $0] }
        return keys
    }

    /// The objects of the rows `changeSet` inserts, listed or in inserted sections: from their
    /// index paths, or, when the `observed` objects are fewer, those of them it inserts.
    private static func insertedIDs(_ changeSet: ChangeSet, new: FetchedResultsSnapshot, observed: Set<ObjectID>) -> [ObjectID] {
        let insertedSectionRows = changeSet.sectionInserts.reduce(0) { $0 + new.numberOfObjects(inSection: $1) }
        if observed.count < changeSet.insertedRows.count + insertedSectionRows {
            return Array(
                observed.filter { id in
                    guard let path = new.indexPath(for: id) else { return false }
                    return changeSet.sectionInserts.containsSorted(path.section) || changeSet.insertedRows.containsSorted(path)
                })
        }
        let paths =
            changeSet.inserts
            + changeSet.sectionInserts.flatMap { section in
                (0..<new.numberOfObjects(inSection: section)).map { IndexPath(row: $0, section: section) }
            }
        return paths.compactMap(new.objectID(at:))
    }

    // MARK: Observation keys

    private static var structure: KeyPath<LiveResults, Int> { \.structureKey }
    private var structureKey: Int { 0 }
    private var lastChangeKey: Int { 0 }
    private var failureKey: Int { 0 }
    private subscript(observedObject id: ObjectID) -> Int { 0 }

    private func access<Member>(_ keyPath: KeyPath<LiveResults, Member>) {
        startIfNeeded()
        registrar.access(self, keyPath: keyPath)
    }

    /// Reads the observation key of object `id`, noting that it is observed.
    private func access(object id: ObjectID) {
        observedIDs.insert(id)
        access(\.[observedObject: id])
    }
}
