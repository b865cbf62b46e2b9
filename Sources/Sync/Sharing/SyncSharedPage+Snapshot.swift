import SQLiteStoreSyncProtocol

extension SyncSharedPage {
    /// The page's rows as a snapshot page in `schemaVersion`, each with its winning cell per
    /// column and its latest delete, so that ``SyncSnapshotApplier`` merges them set-based as it
    /// merges a new device's snapshot, not change by change.
    func snapshotPage(schemaVersion: Int64) -> SyncSnapshotPage {
        var devices: [String] = []
        var indexes: [String: Int] = [:]
        func stamp(_ change: SyncWireChange) -> SyncSnapshotStamp {
            if let index = indexes[change.device] { return SyncSnapshotStamp(hlc: change.hlc, device: index) }
            indexes[change.device] = devices.count
            devices.append(change.device)
            return SyncSnapshotStamp(hlc: change.hlc, device: devices.count - 1)
        }
        let rows = self.rows.map { row in
            var deleted: SyncSnapshotStamp?
            var cells: [SyncSnapshotCell] = []
            for change in row.changes {
                switch change.operation {
                case .set(let column, let value): cells.append(SyncSnapshotCell(column: column, value: value, stamp: stamp(change)))
                case .delete: deleted = stamp(change)
                }
            }
            return SyncSnapshotRow(table: row.table, key: row.key, deleted: deleted, cells: cells)
        }
        return SyncSnapshotPage(schemaVersion: schemaVersion, cursor: cursor ?? 0, devices: devices, rows: rows, next: next)
    }
}
