import CSQLite

extension Database {
    /// Runs `body`, whose statements stop within about a thousand of SQLite's virtual machine
    /// steps once `isCancelled` returns `true`: `body` then throws `CancellationError`. A
    /// check between rows cannot stop a statement that returns no row for a long time, such as
    /// an `ORDER BY` that no index serves, which sorts every row before returning the first.
    ///
    /// Watches through SQLite's progress handler, on the calling thread, and replaces any
    /// other progress handler of the connection for its duration.
    package func stopping<R>(when isCancelled: @escaping () -> Bool, _ body: () throws -> R) throws -> R {
        let watch = CancellationWatch(isCancelled)
        sqlite3_progress_handler(
            handle, CancellationWatch.checkInterval,
            { context in
                guard let context else { return 0 }
                return Unmanaged<CancellationWatch>.fromOpaque(context).takeUnretainedValue().isCancelled() ? 1 : 0
            }, Unmanaged.passUnretained(watch).toOpaque())
        defer {
            sqlite3_progress_handler(handle, 0, nil, nil)
            withExtendedLifetime(watch) {}
        }
        do {
            return try body()
        } catch let error as StoreError where error.code == .interrupt && isCancelled() {
            throw CancellationError()
        }
    }
}

/// What the progress handler of `Database.stopping(when:_:)` asks.
private final class CancellationWatch {
    /// How many virtual machine steps SQLite runs between two looks at `isCancelled`.
    static let checkInterval: Int32 = 1_000

    let isCancelled: () -> Bool

    init(_ isCancelled: @escaping () -> Bool) { self.isCancelled = isCancelled }
}
