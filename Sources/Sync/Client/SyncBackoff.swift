import SQLiteStoreCore

/// The waits between retries after transient failures: doubling from `initial` to `maximum`,
/// each drawn at random between half and all of it so that many devices cut off together do
/// not come back together.
struct SyncBackoff {
    let initial: Duration
    let maximum: Duration
    private var current: Duration

    init(initial: Duration = .milliseconds(200), maximum: Duration = .seconds(30)) {
        self.initial = initial
        self.maximum = maximum
        current = initial
    }

    /// Waits before the next attempt; throws `CancellationError` when the task is cancelled.
    mutating func wait() async throws {
        let milliseconds = Double(current.components.seconds) * 1000 + Double(current.components.attoseconds) / 1e15
        try await Task.sleep(for: .milliseconds(Int64(milliseconds * Double.random(in: 0.5...1))))
        current = min(current * 2, maximum)
    }

    /// An attempt succeeded: the next failure waits `initial` again.
    mutating func reset() { current = initial }
}
