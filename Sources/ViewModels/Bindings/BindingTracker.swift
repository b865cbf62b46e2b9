import Observation

/// The type-erased face of a ``BindingTracker``, so one ``BindingToken`` can own several.
@MainActor
protocol BindingTracking: AnyObject {
    /// True until the tracker is stopped or either side of its binding has been released.
    var isTracking: Bool { get }
    /// Stops delivering values, for good.
    func stop()
}

/// Follows one key path of an `Observable` object with `withObservationTracking` and hands
/// each new value to `deliver`.
///
/// Observation calls back on `willSet`, before the new value is stored, so the tracker hops
/// to the main actor in a new task and reads the value there. That read re-registers the
/// tracking before the value is delivered, so changes made by `deliver` itself are seen.
/// Changes made in the same main-actor turn therefore arrive as one delivery of the latest
/// value. The tracker holds the object weakly and stops once it, or the observer judged by
/// `observerIsAlive`, is gone.
@MainActor
final class BindingTracker<Source: AnyObject & Observable, Value>: BindingTracking {
    private weak var source: Source?
    private let keyPath: KeyPath<Source, Value>
    private let observerIsAlive: @MainActor () -> Bool
    private let deliver: @MainActor (Value) -> Void
    private var isStopped = false

    /// Creates a stopped tracker; call ``start(deliveringCurrentValue:)`` to begin.
    init(
        source: Source,
        keyPath: KeyPath<Source, Value>,
        observerIsAlive: @escaping @MainActor () -> Bool,
        deliver: @escaping @MainActor (Value) -> Void
    ) {
        self.source = source
        self.keyPath = keyPath
        self.observerIsAlive = observerIsAlive
        self.deliver = deliver
    }

    var isTracking: Bool { !isStopped && source != nil && observerIsAlive() }

    /// Registers for changes, first delivering the current value when asked to.
    func start(deliveringCurrentValue: Bool) {
        guard let value = trackedValue(), deliveringCurrentValue else { return }
        deliver(value)
    }

    func stop() {
        isStopped = true
    }

    private func sourceDidChange() {
        guard let value = trackedValue() else { return }
        deliver(value)
    }

    /// Reads the current value and registers for its next change; `nil` once the tracker has stopped.
    private func trackedValue() -> Value? {
        guard isTracking, let source else {
            stop()
            return nil
        }
        return withObservationTracking {
            source[keyPath: keyPath]
        } onChange: { [weak self] in
            Task { @MainActor in self?.sourceDidChange() }
        }
    }
}
