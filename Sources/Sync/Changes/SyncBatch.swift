import SQLiteStoreCore

/// Changes that travel together, with the schema version they were made under.
///
/// A store applies a batch only when its own schema version (the highest migration applied)
/// is the batch's: a device with an older or newer schema gets an error, never altered data.
public struct SyncBatch: Sendable, Hashable {
    /// The migration version of the schema the changes were made under (0 with no migrations).
    public let schemaVersion: Int64
    /// The changes, oldest first.
    public let changes: [SyncChange]

    /// A batch from its parts.
    public init(schemaVersion: Int64, changes: [SyncChange]) {
        self.schemaVersion = schemaVersion
        self.changes = changes
    }

    /// The last change's identity; acknowledge it once the batch is stored elsewhere.
    public var lastID: SyncChange.ID? { changes.last?.id }
}
