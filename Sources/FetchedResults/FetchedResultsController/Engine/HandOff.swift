import Dispatch
import SQLiteStoreCore

/// One value (or error) handed from a queue to a thread that waits for it, while the queue
/// goes on with its work: rows past a first page, read by the background read of the index.
final class HandOff<Value: Sendable>: Sendable {
    private let result = Locked<Result<Value, any Error>?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    /// Hands `value` over; `false`, changing nothing, when one was handed over already.
    func fulfil(_ value: Result<Value, any Error>) -> Bool {
        let isFirst = result.withLock { result in
            guard case .none = result else { return false }
            result = value
            return true
        }
        if isFirst { ready.signal() }
        return isFirst
    }

    /// Blocks until a value is handed over, and returns it or throws its error.
    func wait() throws -> Value {
        ready.wait()
        // `fulfil` stored the result before signalling.
        return try result.withLock { $0 }.unsafelyUnwrapped.get()
    }
}
