/// Links one async store job to task cancellation: once the task is cancelled, the statement
/// the job runs (or the next one it starts) stops with `SQLITE_INTERRUPT`, and the job rolls
/// back and throws `CancellationError`.
///
/// It watches through SQLite's progress handler (an `InterruptCheck`), installed for the job's
/// duration, rather than `sqlite3_interrupt`, which does nothing when it lands between two statements.
final class JobCancellation: Sendable {
    private struct State {
        var isCancelled = false
        var running: SerializedConnection?
    }
    private let state: Locked<State>
    private let interruptCheck: InterruptCheck

    init() {
        let state = Locked(State())
        self.state = state
        interruptCheck = InterruptCheck { state.withLock(\.isCancelled) }
    }

    /// Marks the job cancelled: its running statement stops within a few thousand steps.
    func cancel() {
        state.withLock { $0.isCancelled = true }
    }

    /// Marks the job as running on `connection` (call on its queue); throws if it was cancelled already.
    func start(on connection: SerializedConnection) throws {
        try state.withLock { state in
            if state.isCancelled { throw CancellationError() }
            state.running = connection
        }
        try connection.onQueue { [interruptCheck] db in db.setInterruptCheck(interruptCheck) }
    }

    /// Marks the job finished (call on the connection's queue): the connection's next job runs unwatched.
    func finish() {
        let connection = state.withLock { state in
            defer { state.running = nil }
            return state.running
        }
        try? connection?.onQueue { db in db.setInterruptCheck(nil) }
    }

    private var isCancelled: Bool { state.withLock(\.isCancelled) }

    /// Throws `CancellationError` if the job was cancelled.
    func check() throws {
        if isCancelled { throw CancellationError() }
    }

    /// The error to report for `error` thrown by a job: an interrupt caused by cancellation becomes `CancellationError`.
    func translate(_ error: any Error) -> any Error {
        guard isCancelled else { return error }
        if let storeError = error as? StoreError, storeError.code != .interrupt { return error }
        return CancellationError()
    }
}
