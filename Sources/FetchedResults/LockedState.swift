import Foundation

/// A value guarded by a lock, for state shared between a watcher's queue and its callers.
///
/// (`Synchronization.Mutex` needs macOS 15; the package supports macOS 14.)
final class LockedState<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
