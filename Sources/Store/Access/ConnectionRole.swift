import CSQLite
import Dispatch

/// Which connection of a store a dispatch queue serves; lets the store recognise
/// reentrant calls (a read inside a write, a nested write) instead of deadlocking.
enum ConnectionRole: Equatable {
    case writer
    case reader(index: Int)
}

/// A serial dispatch queue that owns one connection: the connection is touched only on it.
final class SerializedConnection: @unchecked Sendable {
    private let database: Database
    /// Whether the connection is open: `interrupt` reads it from any thread, `close` clears it.
    private let isOpen = Locked(true)
    let queue: DispatchQueue
    let role: ConnectionRole

    init(database: Database, role: ConnectionRole, roleKey: DispatchSpecificKey<ConnectionRole>) {
        self.database = database
        self.role = role
        self.queue = DispatchQueue(label: "SQLiteStore.\(role)")
        queue.setSpecific(key: roleKey, value: role)
        database.isAccessible = false
    }

    /// Stops the statement running on the connection, from any thread (`sqlite3_interrupt`);
    /// does nothing once the connection is closed.
    func interrupt() {
        isOpen.withLock { isOpen in
            if isOpen { sqlite3_interrupt(database.handle) }
        }
    }

    /// Waits for the jobs queued before the call, then closes the connection: jobs queued
    /// afterwards throw `SQLITE_MISUSE`. Call from outside the queue.
    func close() {
        queue.sync {
            isOpen.withLock { $0 = false }
            database.close()
        }
    }

    /// Runs `body` on the queue and waits for it.
    func sync<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.sync { try lend(body) }
    }

    /// Runs `body` with the connection when the caller is already on this queue.
    func onQueue<T>(_ body: (Database) throws -> T) throws -> T {
        dispatchPrecondition(condition: .onQueue(queue))
        return try lend(body)
    }

    /// Runs `body` on the queue and suspends until it finishes.
    func async<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try self.lend(body) })
            }
        }
    }

    /// Runs `body` with the connection usable only until it returns: a `Database` kept beyond
    /// its closure throws `SQLITE_MISUSE` instead of running statements outside the store's
    /// control. Throws `SQLITE_MISUSE` once the connection is closed.
    private func lend<T>(_ body: (Database) throws -> T) throws -> T {
        guard !database.isClosed else { throw StoreError.misuse("the store is closed") }
        let wasAccessible = database.isAccessible
        database.isAccessible = true
        defer { database.isAccessible = wasAccessible }
        return try body(database)
    }
}
