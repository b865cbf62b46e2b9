import Foundation
import Observation
import SQLiteStoreCore

/// A request's live results: a random-access collection of its models, in order, with their
/// sections and identities, kept current as transactions commit and observable with
/// Observation. A SwiftUI view (`@LiveQuery`), an `@Observable` view model and an actor hold
/// and read it the same way.
///
/// ```swift
/// actor Exporter {
///     let store: Store
///     lazy var items = LiveResults(StoreRequest<Item>().order(Column("title").ascending), in: store, isolation: self)
///     init(store: Store) { self.store = store }
///     func titles() async throws -> [String] {
///         try await items.waitUntilCurrent()
///         return items.map(\.title)
///     }
/// }
/// ```
///
/// - **Where changes arrive.** On the actor that made the results (`isolation`, the caller's
///   by default; the main actor when made outside any actor). Read them there: between two
///   suspensions of that actor they do not change, so `count` then `self[i]` agree. An actor's
///   initializer runs outside the actor: make the results in a method, or lazily with
///   `isolation: self` as above. Other actors may read them too (each read sees one delivered
///   state); to keep a consistent state elsewhere, take ``values``, an immutable `Sendable`
///   collection.
/// - **When.** Nothing is read before the first read (an instance made and dropped, as SwiftUI
///   makes them at every view update, costs nothing). The first values arrive a moment later
///   (``isLoading`` is `true` and the collection empty until then); ``waitUntilCurrent()``
///   returns once they show every transaction committed before the call.
/// - **Exact.** Each delivered change is one committed transaction (or several, merged while
///   the actor was busy), with the change set from the previous results (``lastChange``).
/// - **Precise observation.** `count`, `sections`, `results` and `objectID(at:)` depend on the
///   order and membership of the rows: a change that only updates rows in place does not
///   notify them. `self[id]` depends on that object alone; `self[position]` and `object(at:)`
///   on the order and that object; ``values`` and ``lastChange`` on every change.
///
/// Every object of the results is in memory, read once and then only where a transaction
/// changes it (O(k log n) for k changed rows of n). For a list of hundreds of thousands of
/// rows that shows a screenful at a time, a ``FetchedResultsController`` reads the objects a
/// batch at a time, and its `row(at:)` gives the related objects a request includes.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
public final class LiveResults<M: StoreModel>: RandomAccessCollection, Observable, Sendable {
    private let registrar = ObservationRegistrar()
    private let state: Locked<State>
    /// The actor changes are applied on.
    private let actor: any Actor
    /// Whether the store was given, rather than taken from the environment or the default.
    private let storeIsGiven: Bool

    private struct State {
        var request: StoreRequest<M>
        /// The store given, the environment's or the default one; `nil` fails at the first read.
        var store: Store?
        var values: FetchedValues<M>
        /// The values following the store, once the first ones have arrived.
        var followed: FollowedValues<M>?
        var lastChange: ChangeSet?
        var failure: FetchedResultsError?
        var isLoading = true
        /// The task that follows the store, once started.
        var task: Task<Void, Never>?
        /// Counts the starts: a following task that an older start made stops.
        var generation = 0
        /// What the waiting following task wants called once a change arrives.
        var wake: @Sendable () -> Void = {}
        /// The objects whose observation key was ever read: an insert notifies only these.
        var observedIDs: Set<ObjectID> = []
        /// The rows `row(at:)` read with their included objects, until a change touches them.
        var rows: [Int64: FetchedRow<M>] = [:]
        /// How many changes were applied since the first values: one per notification (tests).
        var changesApplied = 0
        /// Who waits for the first values (``waitUntilCurrent()``).
        var waitingForFirstValues: [CheckedContinuation<Void, Never>] = []
    }

    /// The live results of `request` in `store`, or, without one, in the SwiftUI
    /// environment's store (with `@LiveQuery`) or `Store.default`; read from the first read on.
    /// Changes arrive on `isolation`: the caller's actor by default, else the main actor.
    public init(_ request: StoreRequest<M>, in store: Store? = nil, isolation: (any Actor)? = #isolation) {
        state = Locked(State(request: request, store: store ?? Store.default, values: FetchedValues(emptyOf: request.tableName)))
        actor = isolation ?? MainActor.shared
        storeIsGiven = store != nil
    }

    deinit {
        state.current.task?.cancel()
    }

    // MARK: Collection

    /// The position of the first object: 0.
    public var startIndex: Int { 0 }

    /// The number of objects in all sections (0 while ``isLoading``).
    public var endIndex: Int { results.numberOfObjects }

    /// The object at `position`, counting across sections; `position` must be below `count`,
    /// as for an array. It depends on the order and on that object alone.
    public subscript(position: Int) -> M {
        let values = readValues(\.structureKey)
        guard let id = values.objectID(at: position) else { preconditionFailure("position \(position) out of bounds") }
        access(object: id)
        return values[position]
    }

    // MARK: Identities and sections

    /// The results' identities, order and sections.
    public var results: FetchedResultsSnapshot { readValues(\.structureKey).results }

    /// The sections, in order; one unnamed section when the request has no section key.
    public var sections: [FetchedSection] { results.sections }

    /// The identity of the object at `position` (counting across sections), or `nil` out of bounds.
    public func objectID(at position: Int) -> ObjectID? {
        readValues(\.structureKey).objectID(at: position)
    }

    /// The object `id`, or `nil` when it is not in the results. It depends on that object alone.
    public subscript(id: ObjectID) -> M? {
        startIfNeeded()
        access(object: id)
        return state.withLock { $0.values[id] }
    }

    /// The object at `indexPath`, or `nil` out of bounds.
    public func object(at indexPath: IndexPath) -> M? {
        let values = readValues(\.structureKey)
        guard let position = values.results.index.position(of: indexPath), let id = values.objectID(at: position) else {
            return nil
        }
        access(object: id)
        return values[id]
    }

    /// The row at `position` (counting across sections) with the related objects the request
    /// includes (`StoreRequest.including`), read on first access with the rows after it (one
    /// statement per relationship for them all) and kept until a change touches it; `nil` out
    /// of bounds or when it cannot be read. It depends on that row alone, which a change to
    /// one of its included objects updates.
    public func row(at position: Int) -> FetchedRow<M>? {
        let values = readValues(\.structureKey)
        guard let id = values.objectID(at: position) else { return nil }
        access(object: id)
        if let row = state.withLock({ $0.rows[id.rowID] }) { return row }
        let (request, store) = state.withLock { ($0.request, $0.store) }
        let rowIDs = (position..<Swift.min(position + Self.rowsReadTogether, values.count)).compactMap { values.objectID(at: $0)?.rowID }
        guard let store, let read = try? store.read({ db in try db.fetchRows(request, rowIDs: rowIDs) }) else { return nil }
        state.withLock { state in state.rows.merge(read) { $1 } }
        return read[id.rowID]
    }

    /// How many rows `row(at:)` reads at once.
    private static var rowsReadTogether: Int { 32 }

    // MARK: State

    /// Every object of the results as an immutable `Sendable` collection, to keep or hand to
    /// another actor. It depends on every change.
    public var values: FetchedValues<M> { readValues(\.valuesKey) }

    /// Whether the first values (of this request) are still on their way.
    public var isLoading: Bool {
        startIfNeeded()
        registrar.access(self, keyPath: \.isLoadingKey)
        return state.withLock { $0.isLoading }
    }

    /// The change set of the last delivered change, from the results before it to these; after
    /// a new request, the one that inserts its first values.
    public var lastChange: ChangeSet? {
        startIfNeeded()
        registrar.access(self, keyPath: \.valuesKey)
        return state.withLock { $0.lastChange }
    }

    /// Why the results stopped following the store (they stay as last delivered), or `nil`:
    /// no store, a dropped table, a row that does not decode.
    public var failure: FetchedResultsError? {
        startIfNeeded()
        registrar.access(self, keyPath: \.failureKey)
        return state.withLock { $0.failure }
    }

    /// The request; setting it follows the new one (the results change once its first values
    /// arrive, as one change).
    public var request: StoreRequest<M> {
        get {
            registrar.access(self, keyPath: \.requestKey)
            return state.withLock { $0.request }
        }
        set {
            registrar.withMutation(of: self, keyPath: \.requestKey) { state.withLock { $0.request = newValue } }
            restart()
        }
    }

    /// Returns once the results show every transaction committed before the call (the first
    /// values, if they have not arrived), delivered on their actor, so that `try await
    /// store.write { … }` followed by this shows the write. Commits of other connections and
    /// processes count once the store has noticed them. Throws ``failure``.
    public func waitUntilCurrent() async throws(FetchedResultsError) {
        startIfNeeded()
        await withCheckedContinuation { continuation in
            let isWaiting = state.withLock { state in
                if state.isLoading && state.failure == nil { state.waitingForFirstValues.append(continuation) }
                return state.isLoading && state.failure == nil
            }
            if !isWaiting { continuation.resume() }
        }
        if let engine = state.withLock({ $0.followed?.engine }) {
            await engine.flush()
            await Self.takeChanges(of: self, isolation: actor)
        }
        if let failure = state.current.failure { throw failure }
    }

    /// How many changes were applied since the first values (tests).
    var changesApplied: Int { state.current.changesApplied }

    /// Follows `store` instead, unless a store was given at initialization: the SwiftUI
    /// environment's store, known only once the view is installed.
    func adopt(_ store: Store) {
        guard !storeIsGiven, store !== state.current.store else { return }
        state.withLock { $0.store = store }
        restart()
    }

    // MARK: Following

    /// Starts following the store at the first read.
    private func startIfNeeded() {
        let start: (request: StoreRequest<M>, store: Store?, generation: Int)? = state.withLock { state in
            guard state.task == nil, state.failure == nil else { return nil }
            state.generation += 1
            return (state.request, state.store, state.generation)
        }
        guard let start else { return }
        guard let store = start.store else {
            return fail(
                .store(
                    StoreError(
                        code: .misuse,
                        message:
                            "no store for the live results of \(start.request.tableName): pass one, set Store.default or the environment's store"
                    )), generation: start.generation)
        }
        let actor = actor
        let task = Task { [weak self] in
            await Self.follow(start.request, in: store, generation: start.generation, owner: WeakResults(self), isolation: actor)
        }
        state.withLock { state in
            if state.generation == start.generation { state.task = task } else { task.cancel() }
        }
    }

    /// Stops following the old request or store; follows the new one if the old one was followed.
    private func restart() {
        let wasStarted = state.withLock { state in
            defer {
                state.task = nil
                state.followed = nil
                state.generation += 1
            }
            state.task?.cancel()
            return state.task != nil || state.failure != nil
        }
        guard wasStarted else { return }
        set(\.isLoadingKey) { $0.isLoading = true }
        set(\.failureKey) { $0.failure = nil }
        startIfNeeded()
    }

    /// Reads the first values of `request` and then every change, on `isolation`, until the
    /// owner is released, restarted or fails.
    private static func follow(
        _ request: StoreRequest<M>, in store: Store, generation: Int, owner: WeakResults, isolation: isolated any Actor
    ) async {
        let followed: FollowedValues<M>
        do {
            followed = try await FollowedValues.start(request, in: store)
        } catch {
            owner.results?.fail(error, generation: generation)
            return
        }
        guard owner.results?.begin(followed, generation: generation) == true else { return }
        while !Task.isCancelled {
            let wakeUp = WakeUp()
            guard owner.results?.takeChanges(generation: generation, orWake: wakeUp.signal) == true else { return }
            await withTaskCancellationHandler {
                await wakeUp.wait(isolation: isolation)
            } onCancel: {
                wakeUp.signal()
            }
        }
    }

    /// Takes the changes the engine holds for `results`, on its actor.
    private static func takeChanges(of results: LiveResults, isolation: isolated any Actor) {
        let (generation, wake) = results.state.withLock { ($0.generation, $0.wake) }
        _ = results.takeChanges(generation: generation, orWake: wake)
    }

    /// Shows the first values; `false` when a later start made them stale.
    private func begin(_ followed: FollowedValues<M>, generation: Int) -> Bool {
        let first = followed.firstChange
        let observed = state.withLock { $0.generation == generation ? $0.observedIDs : nil }
        guard let observed else { return false }
        let keys = [\LiveResults.structureKey, \.valuesKey, \.isLoadingKey] + observed.map { \LiveResults.[observedObject: $0] }
        let waiting = mutate(keys) { state in
            state.followed = followed
            state.values = first.values
            state.lastChange = first.changeSet
            state.isLoading = false
            state.rows = [:]
            defer { state.waitingForFirstValues = [] }
            return state.waitingForFirstValues
        }
        for continuation in waiting { continuation.resume() }
        return true
    }

    /// Shows each change the engine holds, one notification each; with none left, has `wake`
    /// called once one arrives. `false` when the following ended: a later start, a failure,
    /// the end of the engine.
    private func takeChanges(generation: Int, orWake wake: @escaping @Sendable () -> Void) -> Bool {
        while true {
            guard var followed = state.withLock({ $0.generation == generation ? $0.followed : nil }) else { return false }
            let taken: FollowedValues<M>.Taken
            do {
                taken = try followed.take(orWake: wake)
            } catch {
                fail(error, generation: generation)
                return false
            }
            switch taken {
            case .change(let change):
                let (old, observed) = state.withLock { ($0.values.results, $0.observedIDs) }
                let touched = Self.objects(touchedBy: change.changeSet, old: old, new: change.values.results, observed: observed)
                var keys: [KeyPath<LiveResults, Int>] = [\.valuesKey]
                if change.changeSet.reorders { keys.append(\.structureKey) }
                keys += touched.map { \LiveResults.[observedObject: $0] }
                mutate(keys) { state in
                    state.followed = followed
                    state.values = change.values
                    state.lastChange = change.changeSet
                    state.changesApplied += 1
                    for id in touched { state.rows[id.rowID] = nil }
                }
            case .nothing:
                state.withLock { state in
                    state.followed = followed
                    state.wake = wake
                }
                return true
            case .end:
                return false
            }
        }
    }

    private func fail(_ error: FetchedResultsError, generation: Int) {
        let waiting: [CheckedContinuation<Void, Never>]? = state.withLock { state in
            guard state.generation == generation else { return nil }
            defer { state.waitingForFirstValues = [] }
            return state.waitingForFirstValues
        }
        guard let waiting else { return }
        mutate([\.failureKey, \.isLoadingKey]) { state in
            state.failure = error
            state.isLoading = false
            state.followed = nil
        }
        for continuation in waiting { continuation.resume() }
    }

    /// The objects a change inserts, deletes or changes. Inserted objects are looked for among
    /// the `observed` ones when those are fewer.
    private static func objects(
        touchedBy changeSet: ChangeSet, old: FetchedResultsSnapshot, new: FetchedResultsSnapshot, observed: Set<ObjectID>
    ) -> Set<ObjectID> {
        // Only the sections the change inserts or deletes are counted: O(changes), not O(sections).
        let oldPaths =
            changeSet.deletes + changeSet.updates
            + changeSet.sectionDeletes.flatMap { section in
                (0..<old.numberOfObjects(inSection: section)).map { IndexPath(row: $0, section: section) }
            }
        let newPaths = changeSet.moves.filter { $0.isChanged }.map { $0.to }
        return Set(
            oldPaths.compactMap(old.objectID(at:)) + newPaths.compactMap(new.objectID(at:))
                + insertedIDs(changeSet, new: new, observed: observed))
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

    private var structureKey: Int { 0 }
    private var valuesKey: Int { 0 }
    private var isLoadingKey: Int { 0 }
    private var failureKey: Int { 0 }
    private var requestKey: Int { 0 }
    private subscript(observedObject id: ObjectID) -> Int { 0 }

    /// The values, after starting if needed and noting that `key` was read.
    private func readValues(_ key: KeyPath<LiveResults, Int>) -> FetchedValues<M> {
        startIfNeeded()
        registrar.access(self, keyPath: key)
        return state.withLock { $0.values }
    }

    /// Reads the observation key of object `id`, noting that it is observed.
    private func access(object id: ObjectID) {
        state.withLock { _ = $0.observedIDs.insert(id) }
        registrar.access(self, keyPath: \.[observedObject: id])
    }

    /// One mutation, one notification: every key is marked before the state changes and after,
    /// together (outside the lock: an observer may read the results when told).
    @discardableResult
    private func mutate<Result>(_ keys: [KeyPath<LiveResults, Int>], _ mutation: (inout State) -> Result) -> Result {
        for key in keys { registrar.willSet(self, keyPath: key) }
        let result = state.withLock(mutation)
        for key in keys { registrar.didSet(self, keyPath: key) }
        return result
    }

    private func set(_ key: KeyPath<LiveResults, Int>, _ mutation: (inout State) -> Void) {
        mutate([key], mutation)
    }

    /// The results a following task updates, without keeping them alive.
    private final class WeakResults: Sendable {
        weak let results: LiveResults?
        init(_ results: LiveResults?) { self.results = results }
    }
}

extension ChangeSet {
    /// Whether the change inserts, deletes or moves rows or sections: whether positions change.
    fileprivate var reorders: Bool {
        !sectionDeletes.isEmpty || !sectionInserts.isEmpty || !deletes.isEmpty || !insertedRows.isEmpty || !moves.isEmpty
    }
}
