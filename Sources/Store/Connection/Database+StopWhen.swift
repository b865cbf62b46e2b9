import CSQLite

/// A question SQLite's progress handler asks every `checkInterval` virtual machine steps of a
/// connection's statements while it is installed (`Database.setInterruptCheck(_:)`): once the
/// answer is `true`, the running statement stops with `SQLITE_INTERRUPT`. Unlike
/// `sqlite3_interrupt`, it also stops a statement that starts after the answer turned.
package final class InterruptCheck: Sendable {
    /// How many virtual machine steps SQLite runs between two questions.
    static let checkInterval: Int32 = 1_000

    let isCancelled: @Sendable () -> Bool

    /// A check asking `isCancelled`.
    package init(_ isCancelled: @escaping @Sendable () -> Bool) { self.isCancelled = isCancelled }
}

extension Database {
    /// Has SQLite ask `check` during this connection's statements, in place of any other
    /// progress handler; `nil` stops asking. The caller keeps `check` alive while installed.
    package func setInterruptCheck(_ check: InterruptCheck?) {
        guard let check else { return sqlite3_progress_handler(handle, 0, nil, nil) }
        sqlite3_progress_handler(
            handle, InterruptCheck.checkInterval,
            { context in
                guard let context else { return 0 }
                return Unmanaged<InterruptCheck>.fromOpaque(context).takeUnretainedValue().isCancelled() ? 1 : 0
            }, Unmanaged.passUnretained(check).toOpaque())
    }

    /// Runs `body`, whose statements stop within about a thousand of SQLite's virtual machine
    /// steps once `isCancelled` returns `true`: `body` then throws `CancellationError`. A
    /// check between rows cannot stop a statement that returns no row for a long time, such as
    /// an `ORDER BY` that no index serves, which sorts every row before returning the first.
    package func stopping<R>(when isCancelled: @escaping @Sendable () -> Bool, _ body: () throws -> R) throws -> R {
        let check = InterruptCheck(isCancelled)
        setInterruptCheck(check)
        defer {
            setInterruptCheck(nil)
            withExtendedLifetime(check) {}
        }
        do {
            return try body()
        } catch let error as StoreError where error.code == .interrupt && isCancelled() {
            throw CancellationError()
        }
    }
}
