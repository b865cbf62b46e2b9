import Observation
import SQLiteStoreCore

/// A view model bound to one stored object, identified by its `ObjectID`.
///
/// Subclasses declare in their initializer which model key paths drive which of their
/// properties, with ``bindModel(_:_:)``:
/// ```swift
/// @Observable final class ItemViewModel: StoreViewModel<Item> {
///     var title = ""
///     override init(store: Store, id: Int64) {
///         super.init(store: store, id: id)
///         bindModel(\.title) { viewModel, title in viewModel.title = title }
///     }
/// }
/// ```
/// ``start()`` reads the object and runs every binding once. After each committed
/// transaction that changed the object, the view model receives its new version (from a
/// `ChangeWatcher`) and runs only the bindings whose values differ (by `==`) from the
/// version it had; ``object``
/// always holds the latest version. When the object is deleted, ``isDeleted`` becomes true,
/// ``objectWasDeleted()`` runs once and observation stops.
///
/// Bindings can also read the row the object refers to through a to-one relationship, with
/// `bindModel(_:_:_:)`: `bindModel(Item.list, \.name) { viewModel, name in … }` runs when
/// the item's list is renamed, follows the item when it moves to another list, and gets
/// `nil` when the item has no list; the deletion of that row is reported to
/// ``relatedObjectWasDeleted(_:through:)``. Observation also stops with
/// ``stop()`` and when the view model is released; the store is held weakly, and a released
/// store or a failed read never crashes the view model (failures land in ``lastError``). The
/// store's failure (`Store.failure`) lands there too, and ends observation.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
@Observable
open class StoreViewModel<M: StoreModel> {
    /// The stored object's identity.
    public let objectID: ObjectID
    /// The latest version of the object read from the store, `nil` before ``start()`` and after deletion.
    public private(set) var object: M?
    /// Whether the object was found deleted; it is never un-deleted.
    public private(set) var isDeleted = false
    /// Whether the view model follows the object's changes now.
    public private(set) var isObserving = false
    /// The last error met while following the object, if any.
    public private(set) var lastError: (any Error)?

    @ObservationIgnored private weak var store: Store?
    @ObservationIgnored private var bindings: [ModelBinding<M>] = []
    @ObservationIgnored private var related: [ToOneLink: any RelatedObjectFollowing] = [:]
    @ObservationIgnored private var observation: Task<Void, Never>?

    /// A view model for the object `objectID` of `store`; call ``start()`` to read it.
    public init(store: Store, objectID: ObjectID) {
        self.store = store
        self.objectID = objectID
    }

    /// A view model for the row `id` of the model's table.
    public init(store: Store, id: Int64) {
        self.store = store
        self.objectID = ObjectID(table: M.tableName, rowID: id)
    }

    deinit {
        observation?.cancel()
    }

    /// Runs `update` with the value at `keyPath` on start and whenever a transaction changes
    /// that value; `update` receives the view model itself, so it needs no capture of `self`.
    /// Declare bindings before ``start()``; one declared while observing runs at once.
    public func bindModel<Value: Equatable>(
        _ keyPath: KeyPath<M, Value>, _ update: @escaping @MainActor (Self, Value) -> Void
    ) {
        let binding = ModelBinding(keyPath) { [weak self] value in
            // `self` is statically the base class; its dynamic type is always `Self`.
            guard let owner = self as? Self else { return }
            update(owner, value)
        }
        bindings.append(binding)
        if let object { binding.run(object) }
    }

    /// Runs `update` with the value at `keyPath` of the row the object refers to through
    /// `relationship` (`nil` when it refers to none) on start, and whenever that value changes:
    /// the related row changed, or the object now refers to another row. Declare it like
    /// ``bindModel(_:_:)``:
    /// ```swift
    /// bindModel(Item.list, \.name) { viewModel, name in viewModel.listName = name ?? "No list" }
    /// ```
    /// Transactions that touch neither the object nor its related row cost no read. When the
    /// related row is deleted, the binding gets `nil` and ``relatedObjectWasDeleted(_:through:)``
    /// runs (`ON DELETE SET NULL`); when the deletion cascades to the object, the object's
    /// own deletion is reported instead (``objectWasDeleted()``). The binding follows the key,
    /// whatever row holds it: when another connection with foreign keys off deletes the row or
    /// changes its key and leaves the object's key as it was, the binding gets `nil`, then the
    /// row that takes that key later.
    public func bindModel<Parent: StoreModel, Value: Equatable>(
        _ relationship: ToOne<M, Parent>, _ keyPath: KeyPath<Parent, Value>,
        _ update: @escaping @MainActor (Self, Value?) -> Void
    ) {
        let binding = ModelBinding<Parent?>(reading: { $0?[keyPath: keyPath] }) { [weak self] value in
            guard let owner = self as? Self else { return }
            update(owner, value)
        }
        relatedObject(relationship).add(binding)
    }

    /// The follower of `relationship`'s related row, made (and started, while observing) if there is none.
    private func relatedObject<Parent: StoreModel>(_ relationship: ToOne<M, Parent>) -> RelatedObject<Parent> {
        if let existing = related[relationship.link] as? RelatedObject<Parent> { return existing }
        let follower = RelatedObject<Parent>(link: relationship.link, objectID: objectID) { [weak self] report in
            self?.receive(report, through: relationship.link)
        }
        related[relationship.link] = follower
        if isObserving, let store { follower.start(in: store) }
        return follower
    }

    /// Reads the object, runs every binding once and follows the object's changes.
    /// Does nothing while already observing; after ``stop()`` it starts again afresh.
    /// Throws ``StoreViewModelError/storeReleased``, or the store's error when the read fails.
    /// A missing object is not an error: it is reported as a deletion.
    public func start() throws {
        guard !isObserving, !isDeleted else { return }
        guard let store else { throw StoreViewModelError.storeReleased }
        var changes = ObjectChanges<M>(store: store, objectID: objectID)
        let current = try ObjectChanges<M>.read(objectID, in: store)
        isObserving = true
        guard let current else { return markDeleted() }
        object = current
        bindings.forEach { $0.run(current) }
        observation = Task { @MainActor [weak self] in
            while let state = await changes.next() {
                guard let self, !Task.isCancelled else { return }
                self.receive(state)
            }
            // The changes end uncancelled only after the store's failure, now in `lastError`.
            if !Task.isCancelled { self?.stop() }
        }
        for follower in related.values where isObserving { follower.start(in: store) }
    }

    /// Stops following the object; the properties keep their values.
    public func stop() {
        observation?.cancel()
        observation = nil
        isObserving = false
        related.values.forEach { $0.stop() }
    }

    /// Called once, on the main actor, when the object is found deleted; does nothing by default.
    open func objectWasDeleted() {}

    /// Called on the main actor when the row the object referred to through `link` is found
    /// deleted while the object remains (its reference nullified by `ON DELETE SET NULL`);
    /// the bindings of that relationship have received `nil`. The object's own update (its
    /// foreign key set to NULL) comes from its own observation, just before or just after.
    /// Does nothing by default.
    open func relatedObjectWasDeleted(_ objectID: ObjectID, through link: ToOneLink) {}

    /// Applies `edit` to the object as it is stored now and saves it, in one write transaction.
    /// The view model learns the result like any other change, after the commit.
    /// Throws ``StoreViewModelError`` when the store is gone or the object deleted, or the store's error.
    public func save(_ edit: @escaping @Sendable (inout M) -> Void) async throws {
        guard let store else { throw StoreViewModelError.storeReleased }
        let objectID = objectID
        try await store.write { db in
            guard var object = try db.fetchOne(M.self, rowID: objectID.rowID) else {
                throw StoreViewModelError.objectDeleted(objectID)
            }
            edit(&object)
            try db.update(object)
        }
    }

    /// Deletes the object from the store; the view model then reports the deletion.
    /// Deleting an object that is already gone does nothing.
    public func delete() async throws {
        guard let store else { throw StoreViewModelError.storeReleased }
        let rowID = objectID.rowID
        _ = try await store.write { db in try db.delete(M.self, rowID: rowID) }
    }

    private func receive(_ state: Result<M?, any Error>) {
        switch state {
        case .success(let new?):
            let old = object
            object = new
            for binding in bindings where old.map({ binding.hasChanged($0, new) }) ?? true {
                binding.run(new)
            }
            related.values.forEach { $0.objectDidChange() }
        case .success(nil):
            markDeleted()
        case .failure(let error):
            lastError = error
        }
    }

    private func receive(_ report: RelatedObjectReport, through link: ToOneLink) {
        switch report {
        case .objectDeleted: markDeleted()
        case .relatedDeleted(let id): relatedObjectWasDeleted(id, through: link)
        case .failed(let error): lastError = error
        }
    }

    private func markDeleted() {
        stop()
        object = nil
        guard !isDeleted else { return }
        isDeleted = true
        objectWasDeleted()
    }
}
