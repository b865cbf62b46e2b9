import Observation
import SQLiteStoreCore

/// The one observation of a key path of an object that every binding following it shares.
///
/// `withObservationTracking` cannot be cancelled: a registration stays in the object's
/// registrar until the property next changes. One registration per binding made every
/// released binding cost memory and a main-actor task at that change; one per (object, key
/// path) bounds that cost by the number of distinct key paths followed, whatever the number of
/// bindings made and released. A released binding leaves the hub at once (``remove(_:)`` is
/// synchronous, from any thread); at the next change a hub nobody follows any more neither
/// reads the value nor registers again, and leaves the registry.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
final class BindingHub<Source: AnyObject & Observable, Value>: BindingHubEntry {
    /// A binding's delivery, and whether it joined after a change was announced (it then skips
    /// that delivery: it did not see the value before the change).
    private struct Subscriber {
        let deliver: @MainActor (Value) -> Void
        var skipsPendingDelivery: Bool
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
    }

    private weak var source: Source?
    private let keyPath: KeyPath<Source, Value>
    private let key: BindingHubKey
    private var isRegistered = false
    /// Locked: bindings leave from `deinit`, on any thread.
    private nonisolated let state = Locked(State())
    /// Set when the object announces a change, cleared when the change is delivered.
    private nonisolated let isChangePending = Locked(false)

    private init(source: Source, keyPath: KeyPath<Source, Value>, key: BindingHubKey) {
        self.source = source
        self.keyPath = keyPath
        self.key = key
    }

    /// The hub for `keyPath` of `source`, made if there is none.
    static func hub(for source: Source, _ keyPath: KeyPath<Source, Value>) -> BindingHub {
        let key = BindingHubKey(object: ObjectIdentifier(source), keyPath: keyPath)
        if let hub = BindingHubRegistry.hubs[key] as? BindingHub, hub.source === source { return hub }
        let hub = BindingHub(source: source, keyPath: keyPath, key: key)
        BindingHubRegistry.insert(hub, for: key)
        return hub
    }

    nonisolated var isAbandoned: Bool { state.withLock(\.subscribers.isEmpty) }

    /// How many bindings follow the key path.
    var subscriberCount: Int { state.withLock(\.subscribers.count) }

    var isSourceAlive: Bool { source != nil }

    /// The current value, registering for its next change; `nil` once the object is gone.
    func currentValue() -> Value? {
        guard let source else { return nil }
        if isRegistered { return source[keyPath: keyPath] }
        isRegistered = true
        let changed: @MainActor () -> Void = { [weak self] in self?.sourceDidChange() }
        return withObservationTracking {
            source[keyPath: keyPath]
        } onChange: { [isChangePending] in
            isChangePending.withLock { $0 = true }
            Task { @MainActor in changed() }
        }
    }

    /// Adds a binding's delivery; returns its id for ``remove(_:)``.
    func add(_ deliver: @escaping @MainActor (Value) -> Void) -> UInt64 {
        _ = currentValue()
        let joinsAfterChange = isChangePending.current
        return state.withLock { state in
            state.nextID += 1
            state.subscribers[state.nextID] = Subscriber(deliver: deliver, skipsPendingDelivery: joinsAfterChange)
            return state.nextID
        }
    }

    /// Removes a binding's delivery, at once, from any thread.
    nonisolated func remove(_ id: UInt64) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    /// Reads the new value, registering again, and hands it to every binding, oldest first;
    /// with no binding left, lets the observation lapse and leaves the registry.
    private func sourceDidChange() {
        isRegistered = false
        isChangePending.withLock { $0 = false }
        let subscribers = state.withLock { state in
            defer {
                for id in state.subscribers.keys { state.subscribers[id]?.skipsPendingDelivery = false }
            }
            return state.subscribers.sorted { $0.key < $1.key }.filter { !$0.value.skipsPendingDelivery }.map(\.value.deliver)
        }
        guard !isAbandoned, let value = currentValue() else {
            BindingHubRegistry.remove(key, ifItIs: self)
            return
        }
        for deliver in subscribers { deliver(value) }
    }
}

/// What the registry needs of a hub, whatever its types.
@MainActor
protocol BindingHubEntry: AnyObject {
    /// Whether no binding follows it any more.
    nonisolated var isAbandoned: Bool { get }
    /// Whether the observed object still exists.
    var isSourceAlive: Bool { get }
}

/// Identifies a hub: the observed object and the key path.
struct BindingHubKey: Hashable {
    let object: ObjectIdentifier
    let keyPath: AnyKeyPath
}

/// The hubs by object and key path.
@MainActor
enum BindingHubRegistry {
    private(set) static var hubs: [BindingHubKey: any BindingHubEntry] = [:]
    /// The count after the last sweep; the next sweep comes when the registry has doubled.
    private static var countAfterSweep = 0

    static func insert(_ hub: any BindingHubEntry, for key: BindingHubKey) {
        hubs[key] = hub
        guard hubs.count > 2 * max(countAfterSweep, 16) else { return }
        // Hubs of released objects are never told of a change again: sweep them.
        hubs = hubs.filter { $0.value.isSourceAlive }
        countAfterSweep = hubs.count
    }

    static func remove(_ key: BindingHubKey, ifItIs hub: any BindingHubEntry) {
        if hubs[key] === hub { hubs[key] = nil }
    }
}
