import Dispatch

extension Store {
    /// The changes of every transaction committed after this call that touches `tables`
    /// (`nil`: all), in commit order, as an asynchronous sequence.
    ///
    /// ```swift
    /// for await changes in store.changes(in: ["item"]) {
    ///     print(changes.changes(in: "item").inserted)
    /// }
    /// ```
    /// By default each transaction is one element, and the sequence keeps every transaction's
    /// changes until the consumer takes them, so a slow consumer never slows writers but costs
    /// memory in proportion to the transactions it is behind (a few hundred bytes each, plus
    /// 8 bytes a row). With `coalescing`, everything committed while the consumer was busy is
    /// merged into its next element, so memory stays in proportion to the distinct rows changed
    /// since it last took one, whatever the number of transactions; no row is lost (see
    /// `PendingChanges` for how the changes of one row across transactions merge), but the
    /// consumer can no longer tell which transaction made which change:
    ///
    /// ```swift
    /// for await changes in store.changes(in: ["item"], coalescing: true) {
    ///     await refresh(changes.changes(in: "item"))  // however slow, nothing piles up
    /// }
    /// ```
    /// The sequence ends when the consuming task is cancelled, and when the store fails, after
    /// the changes published before: ``failure`` then tells why.
    public func changes(in tables: Set<String>? = nil, coalescing: Bool = false) -> StoreChangeSequence {
        let (doorbell, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let pending = PendingChanges(coalescing: coalescing)
        let deliver: @Sendable (StoreChanges) -> Void = { changes in
            pending.add(changes)
            continuation.yield()
        }
        let id = broadcaster.subscribe(tables: tables, deliver: deliver, fail: { _ in continuation.finish() })
        continuation.onTermination = { [broadcaster] _ in broadcaster.unsubscribeSoon(id) }
        return StoreChangeSequence(doorbell: doorbell, pending: pending)
    }

    /// Calls `handler` with the changes of every transaction committed after this call that
    /// touches `tables` (`nil`: all), in commit order, on `queue` (a private serial queue by
    /// default), never on the writer and never while a write transaction is open: the form of
    /// ``changes(in:coalescing:)`` for code that is not asynchronous.
    ///
    /// By default each transaction gets its own call, and the calls waiting on a busy `queue`
    /// cost memory in proportion to the transactions behind. With `coalescing`, the changes
    /// committed while a call is waiting or running are merged into the next call, as in
    /// ``changes(in:coalescing:)``: at most one call waits, whatever the handler's speed.
    ///
    /// When the store fails (see ``failure``), `didFail` is called once on `queue`, after the
    /// calls for the changes published before, and the calls end; an observation begun after
    /// the failure gets `didFail` at once. Keep the returned observation: releasing or
    /// cancelling it stops the calls.
    public func observeChanges(
        in tables: Set<String>? = nil, on queue: DispatchQueue? = nil, coalescing: Bool = false,
        didFail: (@Sendable (StoreError) -> Void)? = nil,
        _ handler: @escaping @Sendable (StoreChanges) -> Void
    ) -> ChangeObservation {
        let queue = queue ?? DispatchQueue(label: "SQLiteStore.observer")
        let pending = PendingChanges(coalescing: coalescing)
        let deliver: @Sendable (StoreChanges) -> Void = { changes in
            // Changes added while a call is scheduled are taken by that call's loop.
            guard pending.add(changes) else { return }
            queue.async {
                while let changes = pending.take() { handler(changes) }
            }
        }
        let fail: @Sendable (StoreError) -> Void = { error in queue.async { didFail?(error) } }
        let id = broadcaster.subscribe(tables: tables, deliver: deliver, fail: fail)
        return ChangeObservation { [broadcaster] in broadcaster.unsubscribe(id) }
    }

    /// Checks now whether another connection or process committed since the last check, and
    /// if so publishes a change of all tables, once per check however many commits. The store
    /// also checks on its own, every `StoreConfiguration.externalChangePollInterval`, while
    /// anyone observes. When another connection is in the middle of a write transaction, the
    /// check waits for it to end, as a write would (see the change-notification article).
    ///
    /// Throws what failed. A failure of the file (deleted or replaced since the store opened
    /// it, or no longer a database) is also the store's ``failure``, published to every
    /// observer; a busy or interrupted check is not.
    public func checkForExternalChanges() throws {
        if DispatchQueue.getSpecific(key: roleKey) == .writer {
            try writer.onQueue { db in try externalChangeCheck.run(on: db) }
        } else {
            try writer.sync { db in try externalChangeCheck.run(on: db) }
        }
    }

    /// Why the store stopped publishing changes, or `nil` while it publishes them.
    ///
    /// Set when a check for external changes (the poll, or ``checkForExternalChanges()``) finds
    /// that the store can no longer follow its file: the file was deleted or replaced since
    /// the store opened it (extended code `SQLITE_READONLY_DBMOVED`), is no longer a database
    /// (`SQLITE_NOTADB`), or reading it fails. The failure is terminal: every observer receives
    /// it once and nothing is published afterwards. Reads and writes are not refused; they
    /// answer what SQLite answers.
    public var failure: StoreError? { broadcaster.failure }
}
