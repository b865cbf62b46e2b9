import Observation

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
extension Observable where Self: AnyObject {
    /// Keeps `self[keyPath: keyPath]` and `observer[keyPath: target]` equal, whichever of them changes.
    ///
    /// See ``bindTwoWay(_:with:_:initial:transform:reverse:)`` for timing, conflicts and ownership.
    /// - Parameters:
    ///   - keyPath: The property of `self` to keep in step.
    ///   - observer: The other observable object.
    ///   - target: The property of `observer` to keep in step.
    ///   - initial: Whether to copy the current value of `self` to `observer` at once (the default),
    ///     or leave both as they are until one of them changes.
    @MainActor
    public func bindTwoWay<Observer: AnyObject & Observable, Value: Equatable>(
        _ keyPath: ReferenceWritableKeyPath<Self, Value>,
        with observer: Observer,
        _ target: ReferenceWritableKeyPath<Observer, Value>,
        initial: Bool = true
    ) -> BindingToken {
        bindTwoWay(keyPath, with: observer, target, initial: initial, transform: { $0 }, reverse: { $0 })
    }

    /// Keeps `observer[keyPath: target] == transform(self[keyPath: keyPath])`, and writes
    /// `reverse(observer[keyPath: target])` back when the observer changes.
    ///
    /// Changes travel as in ``bind(_:to:_:initial:)``: on the main actor, after the turn that
    /// made them. The binding remembers the last pair of values it synchronized and ignores
    /// changes that return to that pair, so the write it makes on one side is not sent back
    /// and the two sides never ping-pong, even if `reverse` is not the exact inverse of
    /// `transform`. A side is written only when its value differs. If both sides change in
    /// the same turn, the first change delivered wins and overwrites the other. Both objects
    /// are held weakly; see ``BindingToken`` for how long the binding lasts.
    /// - Parameters:
    ///   - keyPath: The property of `self` to keep in step.
    ///   - observer: The other observable object.
    ///   - target: The property of `observer` to keep in step.
    ///   - initial: Whether to write `transform` of the current value of `self` to `observer` at once
    ///     (the default), or leave both as they are until one of them changes.
    ///   - transform: Turns a value of `self` into a value for `observer`.
    ///   - reverse: Turns a value of `observer` into a value for `self`.
    @MainActor
    public func bindTwoWay<Observer: AnyObject & Observable, Value: Equatable, Target: Equatable>(
        _ keyPath: ReferenceWritableKeyPath<Self, Value>,
        with observer: Observer,
        _ target: ReferenceWritableKeyPath<Observer, Target>,
        initial: Bool = true,
        transform: @escaping (Value) -> Target,
        reverse: @escaping (Target) -> Value
    ) -> BindingToken {
        let link = BindingTwoWayLink(
            source: self, keyPath, observer: observer, target, transform: transform, reverse: reverse
        )
        let sourceTracker = BindingTracker(
            source: self,
            keyPath: keyPath,
            observerIsAlive: { [weak observer] in observer != nil },
            deliver: link.sourceChanged
        )
        let observerTracker = BindingTracker(
            source: observer,
            keyPath: target,
            observerIsAlive: { [weak self] in self != nil },
            deliver: link.observerChanged
        )
        if !initial { link.agreeOnCurrentValues() }
        sourceTracker.start(deliveringCurrentValue: initial)
        observerTracker.start(deliveringCurrentValue: false)
        return BindingToken(trackers: [sourceTracker, observerTracker])
    }
}
