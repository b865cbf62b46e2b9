import Observation

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
extension Observable where Self: AnyObject {
    /// Calls `handler` with the new value each time `self[keyPath: keyPath]` changes.
    ///
    /// The handler runs on the main actor in a task scheduled by the change, after the current
    /// main-actor turn, and sees the value as it is then; several changes in one turn lead to one
    /// call with the latest value. `self` is held weakly, `handler` strongly until the binding ends
    /// (capture objects in it weakly); see ``BindingToken`` for how long that is.
    /// - Parameters:
    ///   - keyPath: The property to follow; it may pass through several observable objects.
    ///   - initial: Whether to call `handler` with the current value at once (the default, as for
    ///     `bind` and `bindTwoWay`), or report only changes.
    ///   - handler: Receives each new value.
    @MainActor
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>,
        initial: Bool = true,
        handler: @escaping @MainActor (Value) -> Void
    ) -> BindingToken {
        let tracker = BindingTracker(source: self, keyPath: keyPath, observerIsAlive: { true }, deliver: handler)
        tracker.start(deliveringCurrentValue: initial)
        return BindingToken(trackers: [tracker])
    }
}
