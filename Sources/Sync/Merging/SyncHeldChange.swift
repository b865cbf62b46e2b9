import CSQLite
import SQLiteStoreCore

/// A remote change that could not be applied here, and why: its row breaks a constraint that
/// no merge resolves (a `UNIQUE` value another row has, a `CHECK` over several columns, a
/// trigger's `RAISE`), or it names a table or column this store does not sync.
///
/// Such a change is held, not lost and not in the way: the rest of its batch is applied, the
/// pull cursor moves on, and the held changes are tried again, first, with every later batch
/// (``StoreSync/apply(_:)``; ``SyncClient`` applies at each pull, with new changes or not).
/// Its row stays as it was until they apply: once a local write removes the conflict, or a
/// migration adds the table or column. ``StoreSync/heldChanges()`` lists them.
public struct SyncHeldChange: Sendable, Hashable {
    /// The change.
    public let change: SyncChange
    /// Why it was not applied the last time it was tried.
    public let error: StoreError

    /// A held change from its parts.
    public init(change: SyncChange, error: StoreError) {
        self.change = change
        self.error = error
    }
}

extension StoreError {
    /// Whether the error is about what a remote change holds (a constraint, a value, a name),
    /// which the next batch need not share, rather than about the database or the connection
    /// (busy, full, I/O, interrupted), which stops every write alike.
    var isAboutRemoteData: Bool {
        [.constraint, .mismatch, .range].contains(code) || code.rawValue == SQLITE_TOOBIG
    }
}
