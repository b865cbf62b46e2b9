import Dispatch

extension Store {
    /// The changes of every transaction committed after this call, in commit order, as an
    /// asynchronous sequence. `tables` limits it to changes touching those tables (`nil`: all).
    ///
    /// ```swift
    /// for await changes in store.changes(in: ["item"]) {
    ///     print(changes.changes(in: "item").inserted)
    /// }
    /// ```
    /// The sequence buffers without bound, so a slow consumer never slows writers; it ends
    /// when the consuming task is cancelled.
    public func changes(in tables: Set<String>? = nil) -> AsyncStream<StoreChanges> {
        let (stream, continuation) = AsyncStream<StoreChanges>.makeStream(bufferingPolicy: .unbounded)
        let id = broadcaster.subscribe(tables: tables) { continuation.yield($0) }
        continuation.onTermination = { [broadcaster] _ in broadcaster.unsubscribe(id) }
        return stream
    }

    /// Calls `handler` with the changes of every transaction committed after this call that
    /// touches `tables` (`nil`: all), in commit order, on `queue` (a private serial queue by
    /// default), never on the writer and never while a write transaction is open.
    ///
    /// Keep the returned observation: releasing or cancelling it stops the calls.
    public func observeChanges(in tables: Set<String>? = nil, on queue: DispatchQueue? = nil,
                               _ handler: @escaping @Sendable (StoreChanges) -> Void) -> ChangeObservation {
        let queue = queue ?? DispatchQueue(label: "SQLiteStore.observer")
        let id = broadcaster.subscribe(tables: tables) { changes in queue.async { handler(changes) } }
        return ChangeObservation { [broadcaster] in broadcaster.unsubscribe(id) }
    }

    /// Checks now whether another connection or process committed since the last check, and
    /// if so publishes a change of all tables. The store also checks on its own, every
    /// `StoreConfiguration.externalChangePollInterval`, while anyone observes.
    public func checkForExternalChanges() throws {
        if DispatchQueue.getSpecific(key: roleKey) == .writer {
            try writer.onQueue { db in try db.changeCapture?.checkDataVersion() }
        } else {
            try writer.sync { db in try db.changeCapture?.checkDataVersion() }
        }
    }
}
