/// Links one async store job to task cancellation: cancelling the task interrupts the
/// job's running statement, and the job rolls back and throws `CancellationError`.
final class JobCancellation: Sendable {
    private struct State {
        var isCancelled = false
        var running: SerializedConnection?
    }
    private let state = Locked(State())

    /// Marks the job cancelled and interrupts its statement if it is running.
    func cancel() {
        state.withLock { state in
            state.isCancelled = true
            state.running?.interrupt()
        }
    }

    /// Marks the job as running on `connection`; throws if it was cancelled already.
    func start(on connection: SerializedConnection) throws {
        try state.withLock { state in
            if state.isCancelled { throw CancellationError() }
            state.running = connection
        }
    }

    /// Marks the job finished: later cancellation cannot interrupt another job.
    func finish() {
        state.withLock { $0.running = nil }
    }

    /// Throws `CancellationError` if the job was cancelled.
    func check() throws {
        if state.withLock(\.isCancelled) { throw CancellationError() }
    }

    /// The error to report for `error` thrown by a job: an interrupt caused by cancellation becomes `CancellationError`.
    func translate(_ error: any Error) -> any Error {
        guard state.withLock(\.isCancelled) else { return error }
        if let storeError = error as? StoreError, storeError.code != .interrupt { return error }
        return CancellationError()
    }
}
