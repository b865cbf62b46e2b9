import Foundation

/// A value guarded by a lock, for state shared across threads; used by every module of the
/// package and its tests, not part of the public API.
///
/// (Not `Synchronization.Mutex`: it needs macOS 15 / iOS 18, above the core's floor of macOS 13 / iOS 16.)
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// The value now.
    package var current: Value { withLock { $0 } }
}
