/// The shared state of a two-way binding: it remembers the last pair of values the two sides
/// agreed on, and propagates a change only when it differs from that pair.
///
/// Writing one side makes its tracker report a change; that echo equals the agreed value and
/// stops there, so a binding never bounces values back and forth, even when `transform` and
/// `reverse` are not exact inverses.
@MainActor
final class BindingTwoWayLink<Source: AnyObject, Observer: AnyObject, Value: Equatable, Target: Equatable> {
    private weak var source: Source?
    private weak var observer: Observer?
    private let sourceKeyPath: ReferenceWritableKeyPath<Source, Value>
    private let observerKeyPath: ReferenceWritableKeyPath<Observer, Target>
    private let transform: (Value) -> Target
    private let reverse: (Target) -> Value
    private var agreed: (value: Value, target: Target)?

    init(
        source: Source,
        _ sourceKeyPath: ReferenceWritableKeyPath<Source, Value>,
        observer: Observer,
        _ observerKeyPath: ReferenceWritableKeyPath<Observer, Target>,
        transform: @escaping (Value) -> Target,
        reverse: @escaping (Target) -> Value
    ) {
        self.source = source
        self.observer = observer
        self.sourceKeyPath = sourceKeyPath
        self.observerKeyPath = observerKeyPath
        self.transform = transform
        self.reverse = reverse
    }

    /// Takes the two current values as agreed, leaving both sides as they are.
    func agreeOnCurrentValues() {
        guard let source, let observer else { return }
        agreed = (source[keyPath: sourceKeyPath], observer[keyPath: observerKeyPath])
    }

    /// Propagates a new source value to the observer unless it is the agreed one.
    func sourceChanged(to value: Value) {
        guard value != agreed?.value else { return }
        let target = transform(value)
        agreed = (value, target)
        observer.map { assign(target, to: $0, at: observerKeyPath) }
    }

    /// Propagates a new observer value to the source unless it is the agreed one.
    func observerChanged(to target: Target) {
        guard target != agreed?.target else { return }
        let value = reverse(target)
        agreed = (value, target)
        source.map { assign(value, to: $0, at: sourceKeyPath) }
    }

    private func assign<Object, Property: Equatable>(
        _ value: Property,
        to object: Object,
        at keyPath: ReferenceWritableKeyPath<Object, Property>
    ) {
        if object[keyPath: keyPath] != value {
            object[keyPath: keyPath] = value
        }
    }
}
