import Observation

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
extension Observable where Self: AnyObject {
    /// Keeps `observer[keyPath: target]` equal to `self[keyPath: keyPath]`.
    ///
    /// Each change arrives on the main actor in a task scheduled by the change, after the
    /// current main-actor turn; several changes in one turn arrive as one assignment of the
    /// latest value. Both objects are held weakly; see ``BindingToken`` for how long the binding lasts.
    /// - Parameters:
    ///   - keyPath: The property to follow; it may pass through several observable objects.
    ///   - observer: The object to update.
    ///   - target: The property of `observer` to assign.
    ///   - initial: Whether to assign the current value at once (the default) or only after the first change.
    @MainActor
    public func bind<Observer: AnyObject, Value>(
        _ keyPath: KeyPath<Self, Value>,
        to observer: Observer,
        _ target: ReferenceWritableKeyPath<Observer, Value>,
        initial: Bool = true
    ) -> BindingToken {
        bind(keyPath, to: observer, target, initial: initial) { $0 }
    }

    /// Keeps `observer[keyPath: target]` equal to `transform(self[keyPath: keyPath])`.
    ///
    /// Timing and ownership are those of ``bind(_:to:_:initial:)``; `transform` runs once per delivery.
    /// - Parameters:
    ///   - keyPath: The property to follow; it may pass through several observable objects.
    ///   - observer: The object to update.
    ///   - target: The property of `observer` to assign.
    ///   - initial: Whether to assign the current value at once (the default) or only after the first change.
    ///   - transform: Turns the followed value into the value to assign.
    @MainActor
    public func bind<Observer: AnyObject, Value, Target>(
        _ keyPath: KeyPath<Self, Value>,
        to observer: Observer,
        _ target: ReferenceWritableKeyPath<Observer, Target>,
        initial: Bool = true,
        transform: @escaping (Value) -> Target
    ) -> BindingToken {
        let tracker = BindingTracker(
            source: self,
            keyPath: keyPath,
            observerIsAlive: { [weak observer] in observer != nil },
            deliver: { [weak observer] value in observer?[keyPath: target] = transform(value) }
        )
        tracker.start(deliveringCurrentValue: initial)
        return BindingToken(trackers: [tracker])
    }
}
