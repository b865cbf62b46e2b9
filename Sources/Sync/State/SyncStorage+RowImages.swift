import SQLiteStoreCore

/// Rows kept whole: a row's cells held on its `store_sync_rows` entry as one stamp and a
/// ``SyncRowImage`` (see ``SyncStorage``), read as cells and written out into
/// `store_sync_cells` before one of its cells or its tombstone is written.
extension SyncStorage {
    /// The cells of the row with `key` when it is kept whole, `nil` otherwise.
    static func imagedCells(of table: String, key: DatabaseValue, in db: Database) throws -> [String: Cell]? {
        let statement = try db.cachedStatement(
            sql: """
                SELECT r.image, r.image_clock, d.device FROM store_sync_rows r LEFT JOIN store_sync_devices d ON d.id = r.image_device
                WHERE r.tbl = ? AND r.pk = ? AND r.image IS NOT NULL
                """)
        try statement.bind([table, key])
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let (image, stamp) = try imageAndStamp(statement, from: 0)
        return Dictionary(image.cells.map { ($0.column, Cell(value: $0.value, stamp: stamp)) }, uniquingKeysWith: { first, _ in first })
    }

    /// Writes the row with `key` out into its cells if it is kept whole.
    static func expandImage(of table: SyncedTable, key: DatabaseValue, in db: Database) throws {
        try expandImages(where: "tbl = ? AND pk = ?", [.text(table.name), key], tables: [table.name: table], in: db)
    }

    /// Writes every row of `table` kept whole out into its cells.
    static func expandImages(of table: SyncedTable, in db: Database) throws {
        try expandImages(where: "tbl = ?", [.text(table.name)], tables: [table.name: table], in: db)
    }

    /// Writes the rows kept whole that the values table `rows` lists (columns `tbl` and `pk`)
    /// out into their cells.
    static func expandImages(ofRowsListedIn rows: String, tables: [String: SyncedTable], in db: Database) throws {
        try expandImages(where: "(tbl, pk) IN (SELECT tbl, pk FROM \(SQLIdentifier.quote(rows)))", [], tables: tables, in: db)
    }

    /// Writes the cells of the rows kept whole that `condition` selects, `link` for the columns
    /// `tables` names as links, and takes their images off their entries.
    private static func expandImages(
        where condition: String, _ arguments: [DatabaseValue], tables: [String: SyncedTable], in db: Database
    ) throws {
        let imaged = try db.cachedStatement(
            sql: """
                SELECT tbl, pk, image, image_clock, d.device FROM store_sync_rows LEFT JOIN store_sync_devices d ON d.id = image_device
                WHERE image IS NOT NULL AND \(condition)
                """)
        try imaged.bind(arguments)
        defer { imaged.reset() }
        var rows: [(table: String, key: DatabaseValue, image: SyncRowImage, stamp: SyncStamp)] = []
        while try imaged.step() {
            guard case .text(let table) = imaged.value(at: 0) else { throw SyncRowImage.corrupt }
            let (image, stamp) = try imageAndStamp(imaged, from: 2)
            rows.append((table, imaged.value(at: 1), image, stamp))
        }
        guard !rows.isEmpty else { return }
        let insert = try db.cachedStatement(
            sql: "INSERT INTO store_sync_cells(tbl, pk, col, value, clock, device, link) VALUES (?, ?, ?, ?, ?, ?, ?)")
        for row in rows {
            let isLink = { (column: String) in tables[row.table]?.hasLinkColumn(spelled: column) ?? false }
            for cell in row.image.cells {
                try insert.bind([
                    .text(row.table), row.key, .text(cell.column), cell.value, .integer(row.stamp.timestamp.rawValue),
                    .text(row.stamp.device), .integer(isLink(cell.column) ? 1 : 0),
                ])
                try insert.execute()
            }
        }
        try db.execute(
            sql:
                "UPDATE store_sync_rows SET image = NULL, image_clock = NULL, image_device = NULL WHERE image IS NOT NULL AND \(condition)",
            arguments: arguments)
    }

    /// The image and the stamp in the columns `image, image_clock`, and the device id, of
    /// `statement`'s current row, from column `first` on: a corrupt error when one is missing
    /// (a device number that `store_sync_devices` does not hold reads as NULL).
    private static func imageAndStamp(_ statement: Statement, from first: Int) throws -> (SyncRowImage, SyncStamp) {
        guard case .blob(let data) = statement.value(at: first), case .integer(let clock) = statement.value(at: first + 1),
            case .text(let device) = statement.value(at: first + 2)
        else { throw SyncRowImage.corrupt }
        return (try SyncRowImage(decoding: data), SyncStamp(timestamp: HybridTimestamp(rawValue: clock), device: device))
    }
}
