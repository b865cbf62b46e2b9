import SQLiteStoreCore
import SQLiteStoreSyncProtocol

extension DatabaseValue {
    /// The value as it travels to the sync server.
    public var wireValue: SyncWireValue {
        switch self {
        case .null: .null
        case .integer(let value): .integer(value)
        case .real(let value): .real(value)
        case .text(let value): .text(value)
        case .blob(let value): .blob(value)
        }
    }

    /// The value a sync message carries.
    public init(_ wire: SyncWireValue) {
        switch wire {
        case .null: self = .null
        case .integer(let value): self = .integer(value)
        case .real(let value): self = .real(value)
        case .text(let value): self = .text(value)
        case .blob(let value): self = .blob(value)
        }
    }
}

extension SyncChange {
    /// The change as it travels to the sync server.
    public var wire: SyncWireChange {
        let operation: SyncWireChange.Operation =
            switch self.operation {
            case .set(let column, let value): .set(column: column, value: value.wireValue)
            case .delete: .delete
            }
        return SyncWireChange(
            device: id.device, sequence: id.sequence, table: table, key: key.wireValue, operation: operation,
            hlc: timestamp.rawValue)
    }

    /// The change a sync message carries.
    public init(_ wire: SyncWireChange) {
        let operation: Operation =
            switch wire.operation {
            case .set(let column, let value): .set(column: column, value: DatabaseValue(value))
            case .delete: .delete
            }
        self.init(
            id: ID(device: wire.device, sequence: wire.sequence), table: wire.table, key: DatabaseValue(wire.key),
            operation: operation, timestamp: HybridTimestamp(rawValue: wire.hlc))
    }
}

extension SyncBatch {
    /// The batch as a push to the sync server.
    public var pushRequest: SyncPushRequest {
        SyncPushRequest(schemaVersion: schemaVersion, changes: changes.map(\.wire))
    }

    /// The changes a pull from the sync server answered.
    public init(_ pulled: SyncPullResponse) {
        self.init(schemaVersion: pulled.schemaVersion, changes: pulled.changes.map(SyncChange.init))
    }

    /// A snapshot page's cells and deletes as changes, each with its stamp (a change's place in
    /// its device's outbox, which a page does not carry, is 0): applied as a batch, they merge
    /// as the page does.
    ///
    /// - Throws: `StoreError` when a stamp names a device the page does not list.
    init(_ page: SyncSnapshotPage) throws {
        var changes: [SyncChange] = []
        for row in page.rows {
            let key = DatabaseValue(row.key)
            let change = { (operation: SyncChange.Operation, stamp: SyncSnapshotStamp) throws -> SyncChange in
                guard page.devices.indices.contains(stamp.device) else {
                    throw StoreError.syncChangeRefused("the snapshot names device #\(stamp.device), which it does not list")
                }
                return SyncChange(
                    id: SyncChange.ID(device: page.devices[stamp.device], sequence: 0), table: row.table, key: key,
                    operation: operation, timestamp: HybridTimestamp(rawValue: stamp.hlc))
            }
            for cell in row.cells { changes.append(try change(.set(column: cell.column, value: DatabaseValue(cell.value)), cell.stamp)) }
            if let deleted = row.deleted { changes.append(try change(.delete, deleted)) }
        }
        self.init(schemaVersion: page.schemaVersion, changes: changes)
    }
}
