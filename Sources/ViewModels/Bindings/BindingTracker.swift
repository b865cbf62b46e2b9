import Observation

/// The type-erased face of a ``BindingTracker``, so one ``BindingToken`` can own several.
@MainActor
protocol BindingTracking: AnyObject {
    /// True until the tracker is stopped or either side of its binding has been released.
    var isTracking: Bool { get }
    /// Stops delivering values, for good.
    func stop()
}

/// Follows one key path of an `Observable` object for one binding and hands each new value
/// to `deliver`, through the ``BindingHub`` that every binding on that key path shares.
///
/// Observation calls back on `willSet`, before the new value is stored, so the hub hops to
/// the main actor in a new task and reads the value there. That read re-registers the
/// tracking before the value is delivered, so changes made by `deliver` itself are seen.
/// Changes made in the same main-actor turn therefore arrive as one delivery of the latest
/// value. The tracker holds the object weakly and stops once it, or the observer judged by
/// `observerIsAlive`, is gone; releasing or stopping it removes it from the hub at once.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
final class BindingTracker<Source: AnyObject & Observable, Value>: BindingTracking {
    private let hub: BindingHub<Source, Value>
    private let observerIsAlive: @MainActor () -> Bool
    private let deliver: @MainActor (Value) -> Void
    private var subscription: UInt64?

    /// Creates a stopped tracker; call ``start(deliveringCurrentValue:)`` to begin.
    init(
        source: Source,
        keyPath: KeyPath<Source, Value>,
        observerIsAlive: @escaping @MainActor () -> Bool,
        deliver: @escaping @MainActor (Value) -> Void
    ) {
        hub = BindingHub.hub(for: source, keyPath)
        self.observerIsAlive = observerIsAlive
        self.deliver = deliver
    }

    deinit {
        if let subscription { hub.remove(subscription) }
    }

    var isTracking: Bool { subscription != nil && hub.isSourceAlive && observerIsAlive() }

    /// Registers for changes, first delivering the current value when asked to.
    func start(deliveringCurrentValue: Bool) {
        guard observerIsAlive() else { return }
        subscription = hub.add { [weak self] value in self?.sourceDidChange(to: value) }
        guard deliveringCurrentValue, let value = hub.currentValue() else { return }
        deliver(value)
    }

    func stop() {
        if let subscription { hub.remove(subscription) }
        subscription = nil
    }

    private func sourceDidChange(to value: Value) {
        guard isTracking else {
            stop()
            return
        }
        deliver(value)
    }
}
