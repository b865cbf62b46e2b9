import Dispatch

/// Runs the external-change check on the writer's queue at a fixed interval, while anyone
/// subscribes, so that commits by other connections and processes, and the store's failure,
/// reach the subscribers. `@unchecked`: a dispatch source is thread-safe; the only stored
/// property is the timer.
final class ExternalChangeMonitor: @unchecked Sendable {
    private let timer: any DispatchSourceTimer

    init(
        interval: Duration, on writer: SerializedConnection, check: ExternalChangeCheck,
        isNeeded: @escaping @Sendable () -> Bool
    ) {
        let nanoseconds = Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        timer = DispatchSource.makeTimerSource(queue: writer.queue)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(max(1_000_000, nanoseconds)))
        timer.setEventHandler { [weak writer] in
            guard let writer, isNeeded() else { return }
            // A failure that ends observation was published by the check itself; a transient
            // one (a busy lock, an interruption) is tried again at the next tick.
            try? writer.onQueue { db in try check.run(on: db) }
        }
        timer.resume()
    }

    deinit { stop() }

    /// Stops polling.
    func stop() { timer.cancel() }
}
