import SQLiteStoreCore

extension SyncChange {
    /// A change as the store keeps it, in its outbox or among its held changes: a row with
    /// `sequence`, `tbl`, `pk`, `col` (NULL for a delete), `value` and `clock`, made by `device`.
    init(stored row: Row, device: String) throws {
        let column = try row.decode(String?.self, column: "col")
        self.init(
            id: SyncChange.ID(device: device, sequence: try row.decode(Int64.self, column: "sequence")),
            table: try row.decode(String.self, column: "tbl"), key: row["pk"] ?? .null,
            operation: column.map { .set(column: $0, value: row["value"] ?? .null) } ?? .delete,
            timestamp: HybridTimestamp(rawValue: try row.decode(Int64.self, column: "clock")))
    }
}
