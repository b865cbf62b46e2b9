import Observation
import SQLiteStoreCore

/// A request's live values on the main actor, as an observable object: every object of the
/// results (a ``FetchedValues``, ready for `ForEach`), the last change set and the failure,
/// kept current by a ``LiveValues`` sequence from the first read until the observer is
/// released. It is what `@LiveQuery` holds: its projected value, `$items`.
///
/// Reading ``values`` starts it. The first values arrive a moment later (``isLoading`` is
/// `true` until then), and each committed transaction that changes them replaces them once.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
public final class LiveValuesObserver<M: StoreModel>: Observable {
    private let registrar = ObservationRegistrar()
    private var storedRequest: StoreRequest<M>
    private var storedValues: FetchedValues<M>
    private var storedLastChange: ChangeSet?
    private var storedFailure: FetchedResultsError?
    private var storedIsLoading = true
    /// The store given, the environment's or the default one; `nil` fails at the first read.
    private var store: Store?
    /// Whether `store` was given, rather than taken from the environment or the default.
    private let storeIsGiven: Bool
    /// The task consuming the live values, once started.
    private let following = Locked<Task<Void, Never>?>(nil)

    /// The live values of `request` in `store`, or, without one, in the SwiftUI environment's
    /// store or `Store.default`: read from the first read of ``values`` on.
    public init(_ request: StoreRequest<M>, in store: Store? = nil) {
        storedRequest = request
        storedValues = FetchedValues(emptyOf: request.tableName)
        self.store = store ?? Store.default
        storeIsGiven = store != nil
    }

    deinit {
        following.current?.cancel()
    }

    // MARK: Reading

    /// Every object of the results, in order; empty until the first values arrive.
    public var values: FetchedValues<M> {
        startIfNeeded()
        registrar.access(self, keyPath: \.values)
        return storedValues
    }

    /// Whether the first values (of this request) are still on their way.
    public var isLoading: Bool {
        startIfNeeded()
        registrar.access(self, keyPath: \.isLoading)
        return storedIsLoading
    }

    /// The change set from the previous values to ``values``; after a new request, the one
    /// that inserts its first values.
    public var lastChange: ChangeSet? {
        registrar.access(self, keyPath: \.lastChange)
        return storedLastChange
    }

    /// Why the values stopped following the store (they stay as last delivered), or `nil`:
    /// no store, a dropped table, a row that does not decode.
    public var failure: FetchedResultsError? {
        registrar.access(self, keyPath: \.failure)
        return storedFailure
    }

    /// The request; setting it follows the new one (the values change once its first
    /// values arrive).
    public var request: StoreRequest<M> {
        get {
            registrar.access(self, keyPath: \.request)
            return storedRequest
        }
        set {
            registrar.withMutation(of: self, keyPath: \.request) { storedRequest = newValue }
            restart()
        }
    }

    /// Follows `store` instead, unless a store was given at initialization: the SwiftUI
    /// environment's store, known only once the view is installed.
    func adopt(_ store: Store) {
        guard !storeIsGiven, store !== self.store else { return }
        self.store = store
        restart()
    }

    // MARK: Following

    private func startIfNeeded() {
        guard following.current == nil, storedFailure == nil else { return }
        guard let store else {
            return fail(
                .store(
                    StoreError(
                        code: .misuse,
                        message:
                            "no store for the live values of \(storedRequest.tableName): pass one, set Store.default or the environment's store"
                    )))
        }
        let values = LiveValues(storedRequest, in: store)
        following.withLock {
            $0 = Task { [weak self] in
                do {
                    for try await change in values { self?.take(change) }
                } catch {
                    self?.fail(.wrap(error))
                }
            }
        }
    }

    /// Stops following the old request or store; follows the new one if it was followed.
    private func restart() {
        let task = following.withLock { task in
            defer { task = nil }
            return task
        }
        guard task != nil || storedFailure != nil else { return }  // not started yet
        task?.cancel()
        set(\.isLoading) { $0.storedIsLoading = true }
        set(\.failure) { $0.storedFailure = nil }
        startIfNeeded()
    }

    private func take(_ change: FetchedValuesChange<M>) {
        set(\.values) { $0.storedValues = change.values }
        set(\.lastChange) { $0.storedLastChange = change.changeSet }
        if storedIsLoading { set(\.isLoading) { $0.storedIsLoading = false } }
    }

    private func fail(_ error: FetchedResultsError) {
        set(\.failure) { $0.storedFailure = error }
        if storedIsLoading { set(\.isLoading) { $0.storedIsLoading = false } }
    }

    private func set<Member>(_ keyPath: KeyPath<LiveValuesObserver, Member>, _ mutation: (LiveValuesObserver) -> Void) {
        registrar.withMutation(of: self, keyPath: keyPath) { mutation(self) }
    }
}
