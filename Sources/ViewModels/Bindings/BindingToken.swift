/// Keeps a binding made by `bind`, `bindTwoWay` or `observe` alive.
///
/// Ownership works like Combine's `AnyCancellable`: the binding lasts as long as you keep
/// its token, so store it (usually in the observer, e.g. `var bindings: [BindingToken]`).
/// Releasing the token, calling ``unbind()``, or releasing either bound object ends the
/// binding; afterwards no callback runs and no value is written. The token itself never
/// keeps the bound objects alive.
@MainActor
public final class BindingToken {
    private var trackers: [any BindingTracking]

    init(trackers: [any BindingTracking]) {
        self.trackers = trackers
    }

    /// True until ``unbind()`` is called or either bound object has been released.
    public var isBound: Bool {
        !trackers.isEmpty && trackers.allSatisfy(\.isTracking)
    }

    /// Ends the binding now. Values already scheduled for delivery are dropped. Calling it again does nothing.
    public func unbind() {
        trackers.forEach { $0.stop() }
        trackers.removeAll()
    }
}
