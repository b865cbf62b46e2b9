import SQLiteStoreCore

/// Hands each event to an optional handler and to every open `AsyncStream` made by `stream()`,
/// until a last event ends them all.
final class EventFanOut<Event: Sendable>: Sendable {
    private struct Streams {
        var continuations: [Int: AsyncStream<Event>.Continuation] = [:]
        var nextID = 0
        /// The event that ended the fan-out, given to the streams made afterwards.
        var last: Event?
    }

    private let handler: EventHandler<Event>?
    private let streams = Locked(Streams())

    init(handler: EventHandler<Event>?) { self.handler = handler }

    deinit { streams.withLock { $0.continuations.values.forEach { $0.finish() } } }

    /// A new stream of every event sent after this call; unbounded, ends when its consumer is
    /// cancelled or after the last event (made after it, the stream holds that event alone).
    func stream() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let id: Int? = streams.withLock { state in
            if let last = state.last {
                continuation.yield(last)
                continuation.finish()
                return nil
            }
            state.nextID += 1
            state.continuations[state.nextID] = continuation
            return state.nextID
        }
        if let id {
            continuation.onTermination = { [weak self] _ in
                _ = self?.streams.withLock { $0.continuations.removeValue(forKey: id) }
            }
        }
        return stream
    }

    /// Sends `event` to the handler and the streams, unless the last event was sent.
    func send(_ event: Event) {
        guard let continuations = streams.withLock({ $0.last == nil ? Array($0.continuations.values) : nil }) else { return }
        handler?.deliver(event)
        for continuation in continuations { continuation.yield(event) }
    }

    /// Sends `event` to the handler and the streams, then ends the streams; nothing is sent afterwards.
    func finish(with event: Event) {
        handler?.deliver(event)
        let continuations = streams.withLock { state in
            defer { state.continuations.removeAll() }
            state.last = event
            return Array(state.continuations.values)
        }
        for continuation in continuations {
            continuation.yield(event)
            continuation.finish()
        }
    }
}
