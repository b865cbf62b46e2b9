import SQLiteStoreResults

/// Hands each `ChangeSet` of a data source to its subscribers: synchronously to handlers,
/// and in order to asynchronous streams.
///
/// Handlers run on the main actor inside ``publish(_:)``, while the data source already
/// holds its new content, which is what a list view needs to apply a batch update.
/// Streams buffer every change set in order; a stream consumer that reads the data source
/// sees its latest content, which can be ahead of the change set it is handling.
/// Releasing the publisher (with its data source) finishes every stream.
@MainActor
public final class ChangeSetPublisher {
    private struct Subscriber {
        weak var token: ChangeSetSubscription?
        let handler: @MainActor (ChangeSet) -> Void
    }

    private var subscribers: [Int: Subscriber] = [:]
    private var continuations: [Int: AsyncStream<ChangeSet>.Continuation] = [:]
    private var nextID = 0

    /// Creates a publisher without subscribers.
    public init() {}

    deinit {
        continuations.values.forEach { $0.finish() }
    }

    /// Calls `handler` with each change set published from now on, until the returned
    /// subscription is cancelled or released. Capture objects in `handler` weakly.
    public func subscribe(_ handler: @escaping @MainActor (ChangeSet) -> Void) -> ChangeSetSubscription {
        pruneReleasedSubscribers()
        let id = makeID()
        let token = ChangeSetSubscription(publisher: self, id: id)
        subscribers[id] = Subscriber(token: token, handler: handler)
        return token
    }

    /// The change sets published from now on, in order, without loss; the stream ends
    /// when the publisher is released or the consuming task is cancelled.
    public func stream() -> AsyncStream<ChangeSet> {
        let (stream, continuation) = AsyncStream<ChangeSet>.makeStream(bufferingPolicy: .unbounded)
        let id = makeID()
        continuations[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.continuations[id] = nil }
        }
        return stream
    }

    /// Delivers `changeSet` to every subscriber; an empty change set is not delivered.
    public func publish(_ changeSet: ChangeSet) {
        guard !changeSet.isEmpty else { return }
        pruneReleasedSubscribers()
        for id in subscribers.keys.sorted() {
            subscribers[id]?.handler(changeSet)
        }
        continuations.values.forEach { $0.yield(changeSet) }
    }

    /// Whether anyone still listens, through a handler or a stream.
    public var hasSubscribers: Bool {
        subscribers.values.contains { $0.token != nil } || !continuations.isEmpty
    }

    func unsubscribe(_ id: Int) {
        subscribers[id] = nil
    }

    private func pruneReleasedSubscribers() {
        subscribers = subscribers.filter { $0.value.token != nil }
    }

    private func makeID() -> Int {
        nextID += 1
        return nextID
    }
}
