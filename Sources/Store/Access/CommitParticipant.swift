/// Takes part in a store's write transactions: the one seam through which a module built on
/// the store (the sync module) records what each transaction changes. The store calls it on
/// the writer, inside the transaction, after the transaction's work and just before `COMMIT`,
/// with the changes it made; a throw rolls the transaction back.
package protocol CommitParticipant: AnyObject {
    /// Called before the open write transaction commits, with its changes (never empty).
    func transactionWillCommit(_ changes: StoreChanges, in db: Database) throws
}

/// What a store's configuration carries to install a ``CommitParticipant`` on the writer
/// connection when the store opens (``StoreConfiguration/commitParticipant``).
package protocol CommitParticipantSettings: Sendable {
    /// The participant for the store's writer, made once at open, inside no transaction.
    func makeParticipant(on db: Database) throws -> any CommitParticipant
}

/// The table names a store never publishes changes of: SQLite's own, and the bookkeeping
/// tables of modules built on the store, each of which reserves a prefix (the sync module's
/// `store_sync_`). Compared with ASCII letters folded, as SQLite compares names.
package enum ReservedTableNames {
    package static let prefixes = ["sqlite_", "store_sync_"]

    /// Whether `name` starts with one of ``prefixes``.
    package static func contains(_ name: String) -> Bool {
        prefixes.contains { prefix in String(name.prefix(prefix.count)).sqliteIdentifierFolded == prefix }
    }
}
