import SQLiteStoreCore
import SQLiteStoreResults

/// What following a related row tells its ``StoreViewModel``.
enum RelatedObjectReport {
    /// The view model's own object is gone (a cascading delete, seen first from the related side).
    case objectDeleted
    /// The row the object referred to was deleted; the bindings got `nil` (the reference was nullified).
    case relatedDeleted(ObjectID)
    /// A read failed.
    case failed(any Error)
}

/// The type-erased face of a ``RelatedObject``, so a view model can hold one per relationship.
@MainActor
protocol RelatedObjectFollowing: AnyObject {
    /// Starts following: reads the related row and runs every binding once.
    func start(in store: Store)
    /// Stops following; ``start(in:)`` starts afresh.
    func stop()
    /// The view model's own object changed: its foreign key may now refer to another row.
    func objectDidChange()
}

/// The row a view model's object refers to through one to-one relationship, followed for
/// the bindings that read it.
///
/// A `ChangeWatcher` of the parent table watches only the row referred to now, so a
/// transaction that touches neither that row nor the object costs a set lookup and no read.
/// The relationship is read again when the object changes (its foreign key may have moved to
/// another row, which is then watched instead), when the watched row changes and its key is
/// not the rowid (it may no longer hold the key), and when the watched row is deleted, to
/// tell a nullified reference (reported as ``RelatedObjectReport/relatedDeleted(_:)``) from a
/// cascade that deleted the object itself. While the object's key refers to no row (a row
/// deleted by a connection with foreign keys off, the child left with its key), every change
/// of the parent table reads the relationship again, so that a row that takes the key
/// (inserted again, or given it) is followed from then on: the bindings follow the key,
/// whatever row holds it. They see the related row's latest state, and run only when the
/// value they read changed.
@MainActor
final class RelatedObject<Parent: StoreModel>: RelatedObjectFollowing {
    private let link: ToOneLink
    private let objectID: ObjectID
    private let report: @MainActor (RelatedObjectReport) -> Void
    private var bindings: [ModelBinding<Parent?>] = []
    private var current: RelatedRow<Parent>.Found?
    private weak var store: Store?
    private var watcher: ChangeWatcher<Parent>?
    private var observation: Task<Void, Never>?
    /// The follower of the parent table while the object's key refers to no row.
    private var missingRowWait: Task<Void, Never>?

    init(link: ToOneLink, objectID: ObjectID, report: @escaping @MainActor (RelatedObjectReport) -> Void) {
        self.link = link
        self.objectID = objectID
        self.report = report
    }

    deinit {
        observation?.cancel()
        missingRowWait?.cancel()
    }

    /// Adds a binding; while following, it runs at once with the current related row.
    func add(_ binding: ModelBinding<Parent?>) {
        bindings.append(binding)
        if watcher != nil { binding.run(current?.model) }
    }

    func start(in store: Store) {
        guard watcher == nil else { return }
        let watcher = ChangeWatcher<Parent>(store: store, table: link.parentTable)
        let events = watcher.events()
        self.store = store
        self.watcher = watcher
        observation = Task { @MainActor [weak self] in
            for await event in events {
                guard let self, !Task.isCancelled else { return }
                self.receive(event)
            }
        }
        refresh(runningAll: true)
    }

    func stop() {
        observation?.cancel()
        observation = nil
        stopWaitingForMissingRow()
        watcher = nil
        current = nil
    }

    func objectDidChange() { refresh(runningAll: false) }

    private func receive(_ event: ChangeWatcher<Parent>.Event) {
        guard let current, let state = event.state(of: current.id) else { return }
        switch state {
        case .success(let model?) where keyIsRowID: apply(RelatedRow.Found(id: current.id, model: model))
        case .success: refresh(runningAll: false)  // deleted, or its key may have changed
        case .failure(let error): report(.failed(error))
        }
    }

    /// Whether the key the link refers to is the parent's rowid: an update of the followed row
    /// then leaves it holding the key (a changed rowid is a deletion and an insertion).
    private var keyIsRowID: Bool { Parent.ID.isRowIDAlias && link.referencedKey == Parent.primaryKeyColumn }

    /// Reads the relationship again and follows the row it leads to now.
    private func refresh(runningAll: Bool) {
        guard let store, let watcher else { return }
        do {
            var row = try RelatedRow<Parent>.read(of: objectID, through: link, former: current?.id, in: store)
            if beginsWatching(row, in: store, with: watcher) {
                // Read after the watch began, so a change committed in between is not missed.
                row = try RelatedRow<Parent>.read(of: objectID, through: link, former: current?.id, in: store)
            }
            if !row.refersToMissingRow { stopWaitingForMissingRow() }
            guard row.objectExists else { return report(.objectDeleted) }
            let former = current?.id
            watcher.unwatch(watcher.watchedIDs.subtracting(row.parent.map { [$0.id] } ?? []))
            apply(row.parent, runningAll: runningAll)
            if let former, former != row.parent?.id, !row.formerParentExists { report(.relatedDeleted(former)) }
        } catch {
            report(.failed(error))
        }
    }

    /// Starts watching what `row` needs and is not watched yet: the related row, or the parent
    /// table while the key refers to no row; returns whether it started anything.
    private func beginsWatching(_ row: RelatedRow<Parent>, in store: Store, with watcher: ChangeWatcher<Parent>) -> Bool {
        if let new = row.parent?.id, !watcher.watchedIDs.contains(new) {
            watcher.watch([new])
            return true
        }
        guard row.refersToMissingRow, missingRowWait == nil else { return false }
        let changes = store.changes(in: [link.parentTable])
        missingRowWait = Task { @MainActor [weak self] in
            for await _ in changes {
                guard let self, !Task.isCancelled else { return }
                self.refresh(runningAll: false)
            }
        }
        return true
    }

    private func stopWaitingForMissingRow() {
        missingRowWait?.cancel()
        missingRowWait = nil
    }

    private func apply(_ new: RelatedRow<Parent>.Found?, runningAll: Bool = false) {
        let old = current?.model
        current = new
        for binding in bindings where runningAll || binding.hasChanged(old, new?.model) {
            binding.run(new?.model)
        }
    }
}
