import Foundation

/// A value shared between the threads of a test, guarded by a lock.
final class Protected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Reads or changes the value under the lock.
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// The current value.
    var current: Value { withLock { $0 } }
}

/// Waits on `semaphore` long enough for any working store (a deadlock gives up instead of hanging).
func waitBriefly(_ semaphore: DispatchSemaphore) -> Bool {
    semaphore.wait(timeout: .now() + 30) == .success
}
