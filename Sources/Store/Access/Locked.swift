import Foundation

/// A value guarded by a lock, for state shared across threads.
///
/// (`Synchronization.Mutex` would do, but needs macOS 15; this package supports macOS 14.)
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
