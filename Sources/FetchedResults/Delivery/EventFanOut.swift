import SQLiteStoreCore

/// Hands each event to an optional handler and to every open `AsyncStream` made by `stream()`.
final class EventFanOut<Event: Sendable>: Sendable {
    private struct Streams {
        var continuations: [Int: AsyncStream<Event>.Continuation] = [:]
        var nextID = 0
    }

    private let handler: EventHandler<Event>?
    private let streams = Locked(Streams())

    init(handler: EventHandler<Event>?) { self.handler = handler }

    deinit { streams.withLock { $0.continuations.values.forEach { $0.finish() } } }

    /// A new stream of every event sent after this call; unbounded, ends when its consumer is cancelled.
    func stream() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let id = streams.withLock { state in
            state.nextID += 1
            state.continuations[state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.streams.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends `event` to the handler and the streams.
    func send(_ event: Event) {
        handler?.deliver(event)
        let continuations = streams.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(event) }
    }
}
