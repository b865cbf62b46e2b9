import SQLiteStoreSyncProtocol

/// A snapshot's rows that this store has no sync state for (a new device's case), written
/// in one pass: their cells and tombstones are stored as they come (nothing here to merge
/// with), and each row that the merge rule makes present is inserted into its table from the
/// page's values, its rowid recorded with its tombstone, without the temporary table, the
/// set-based checks and the joins that ``SyncSnapshotApplier`` runs for rows it merges.
extension SyncSnapshotApplier {
    /// Whether `rows`, all of `table`, can be written by ``writeNewRows(_:of:page:)``: `table` has
    /// no foreign key of its own (the parent checks stay with the merge), the keys are text in
    /// strictly increasing byte order (SQLite's `BINARY` order, in which the merge path inserts
    /// rows, hence gives their rowids), and neither `store_sync_cells` nor `store_sync_rows` holds
    /// a key of `table` between the first and the last.
    func areNew(_ rows: [SyncSnapshotRow], of table: SyncedTable) throws -> Bool {
        guard table.foreignKeys.isEmpty, case .text(let first)? = rows.first?.key, case .text(let last)? = rows.last?.key else {
            return false
        }
        var previous: String?
        for row in rows {
            guard case .text(let key) = row.key else { return false }
            if let previous, !previous.utf8.lexicographicallyPrecedes(key.utf8) { return false }
            previous = key
        }
        let isKnown = try db.fetchValue(
            Bool.self,
            sql: """
                SELECT EXISTS (SELECT 1 FROM store_sync_cells WHERE tbl = ?1 AND pk >= ?2 AND pk <= ?3)
                    OR EXISTS (SELECT 1 FROM store_sync_rows WHERE tbl = ?1 AND pk >= ?2 AND pk <= ?3)
                """,
            arguments: [table.name, first, last])
        return isKnown == false
    }

    /// Writes `rows`, new here by ``areNew(_:of:)``, in key order: each one's cells and
    /// tombstone, and the row itself when it has a cell for every column newer than its
    /// tombstone (the rows the merge path inserts in one statement). A row that is not inserted
    /// (incomplete, deleted, or its key taken by a row of the table that sync never recorded)
    /// is staged for ``SyncMaterializer``, as the merge path stages it; an inserted one is staged
    /// as inserted when other tables may wait for it. Returns the newest clock reading among them.
    func writeNewRows(_ rows: [SyncSnapshotRow], of table: SyncedTable, page: SyncSnapshotPage) throws -> Int64 {
        let cellInsert = try db.cachedStatement(sql: Self.cellUpsert)
        let names = ([table.key] + table.columns).map(SQLIdentifier.quote).joined(separator: ", ")
        let marks = Array(repeating: "?", count: table.columns.count + 1).joined(separator: ", ")
        let rowInsert = try db.cachedStatement(
            sql: "INSERT INTO \(SQLIdentifier.quote(table.name)) (\(names)) VALUES (\(marks)) ON CONFLICT DO NOTHING")
        let stateInsert = try db.cachedStatement(
            sql: "INSERT INTO store_sync_rows(tbl, pk, rid, deleted_clock, deleted_device) VALUES (?, ?, ?, ?, ?)")
        let staging = try db.cachedStatement(sql: "INSERT INTO temp.store_sync_incoming_rows(tbl, pk, won, fast) VALUES (?, ?, 1, ?)")
        // A rowid recorded for another key, which SQLite may give a new row: none above this.
        let highestRecorded = try db.fetchValue(
            Int64.self, sql: "SELECT max(rid) FROM store_sync_rows WHERE tbl = ?", arguments: [table.name])
        let stagesInserted = hasChildTables(table)
        var newest: Int64 = 0
        for row in rows {
            let key = DatabaseValue(row.key)
            try bind(cellInsert, [.text(table.name), key], from: 1)
            // Each column's winning cell (a page holds one a column; the greater stamp if not).
            var winners: [(cell: SyncSnapshotCell, stamp: SyncStamp)?] = Array(repeating: nil, count: table.columns.count)
            for cell in row.cells {
                let index = try columnIndex(of: cell, in: table)
                _ = try run(cellInsert, try cellValues(cell, of: table, page: page))
                newest = max(newest, cell.stamp.hlc)
                let stamp = try syncStamp(cell.stamp, in: page)
                if let winner = winners[index], winner.stamp >= stamp { continue }
                winners[index] = (cell, stamp)
            }
            let tombstone = try row.deleted.map { try syncStamp($0, in: page) }
            if let deleted = row.deleted { newest = max(newest, deleted.hlc) }
            var rowID: Int64?
            let cells = winners.compactMap { $0 }
            if cells.count == table.columns.count, let latest = cells.map(\.stamp).max(), tombstone.map({ $0 < latest }) ?? true {
                try bind(rowInsert, [key] + cells.map { DatabaseValue($0.cell.value) }, from: 1)
                try rowInsert.execute()
                if db.changesCount > 0 { rowID = db.lastInsertedRowID }
            }
            if let rowID, let highestRecorded, rowID <= highestRecorded { try SyncStorage.forgetRowID(table.name, rowID, in: db) }
            if rowID != nil || tombstone != nil {
                try bind(
                    stateInsert,
                    [
                        .text(table.name), key, rowID.map(DatabaseValue.integer) ?? .null,
                        tombstone.map { .integer($0.timestamp.rawValue) } ?? .null, tombstone.map { .text($0.device) } ?? .null,
                    ], from: 1)
                try stateInsert.execute()
            }
            guard rowID == nil ? !row.cells.isEmpty || tombstone != nil : stagesInserted else { continue }
            try bind(staging, [.text(table.name), key, .integer(rowID == nil ? 0 : 1)], from: 1)
            try staging.execute()
        }
        return newest
    }

    private func syncStamp(_ stamp: SyncSnapshotStamp, in page: SyncSnapshotPage) throws -> SyncStamp {
        SyncStamp(timestamp: HybridTimestamp(rawValue: stamp.hlc), device: try device(stamp, in: page))
    }
}
