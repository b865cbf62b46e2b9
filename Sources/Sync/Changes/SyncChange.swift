import SQLiteStoreCore

/// One recorded change of a synced row: a column set to a value, or the row deleted.
public struct SyncChange: Sendable, Hashable {
    /// A change's identity: the device that made it and its place in that device's outbox.
    public struct ID: Sendable, Hashable, CustomStringConvertible {
        /// The device that made the change.
        public let device: String
        /// The change's sequence number in that device's outbox, growing.
        public let sequence: Int64

        /// An identity from its parts.
        public init(device: String, sequence: Int64) {
            self.device = device
            self.sequence = sequence
        }

        public var description: String { "\(device)#\(sequence)" }
    }

    /// What the change does to its row.
    public enum Operation: Sendable, Hashable {
        /// The column took this value (every column of an inserted row gets one).
        case set(column: String, value: DatabaseValue)
        /// The row was deleted: a tombstone.
        case delete
    }

    /// The change's identity.
    public let id: ID
    /// The name of the synced table, its ASCII letters lowercased (SQLite's case-insensitivity).
    public let table: String
    /// The row's primary key.
    public let key: DatabaseValue
    /// What happened to the row.
    public let operation: Operation
    /// When, on the hybrid logical clock of the device that made it.
    public let timestamp: HybridTimestamp

    /// A change from its parts.
    public init(id: ID, table: String, key: DatabaseValue, operation: Operation, timestamp: HybridTimestamp) {
        self.id = id
        self.table = table.sqliteIdentifierFolded
        self.key = key
        self.operation = operation
        self.timestamp = timestamp
    }

    var stamp: SyncStamp { SyncStamp(timestamp: timestamp, device: id.device) }
}
