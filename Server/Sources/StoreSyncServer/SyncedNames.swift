import SQLiteStoreSync

/// Whether the changes of a snapshot query sync under one schema (a device's older version):
/// each table and column looked up once, then remembered by its bytes.
struct SyncedNames {
    let schema: SyncSchema
    private var known: [[UInt8]: Bool] = [:]

    init(_ schema: SyncSchema) { self.schema = schema }

    /// Whether change `change` of `changes` names a table and column `schema` syncs (a delete: a table).
    mutating func contains(_ changes: SnapshotChanges, _ change: Int) -> Bool {
        let (table, column) = (changes.tables.bytes(change), changes.columns.bytes(change))
        let name = table + [0] + column
        if let synced = known[name] { return synced }
        let synced =
            schema.refusal(
                table: String(decoding: table, as: UTF8.self), column: column.isEmpty ? nil : String(decoding: column, as: UTF8.self))
            == nil
        known[name] = synced
        return synced
    }
}
