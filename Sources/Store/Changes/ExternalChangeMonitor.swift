import Dispatch

/// Polls `PRAGMA data_version` on the writer's queue at a fixed interval, while anyone
/// subscribes, so that commits by other connections and processes reach the subscribers.
/// `@unchecked`: a dispatch source is thread-safe; the only stored property is the timer.
final class ExternalChangeMonitor: @unchecked Sendable {
    private let timer: any DispatchSourceTimer

    init(interval: Duration, on writer: SerializedConnection, isNeeded: @escaping @Sendable () -> Bool) {
        let nanoseconds = Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        timer = DispatchSource.makeTimerSource(queue: writer.queue)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(max(1_000_000, nanoseconds)))
        timer.setEventHandler { [weak writer] in
            guard let writer, isNeeded() else { return }
            try? writer.onQueue { db in try db.changeCapture?.checkDataVersion() }
        }
        timer.resume()
    }

    deinit { stop() }

    /// Stops polling.
    func stop() { timer.cancel() }
}
