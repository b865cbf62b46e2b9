import SQLiteStoreCore

/// The store's own sync tables, beside the synced ones, and their reads and writes.
///
/// - `store_sync_meta`: the device id and the hybrid clock's last reading.
/// - `store_sync_cells`: each synced cell's winning value and its stamp: the state that every
///   device converges to, kept for deleted rows too (an update later than a delete revives the row).
///   The cells of foreign key columns (`link`) are indexed by value, to find a parent's
///   children; only those: an index of every cell by value costs most of a large write.
/// - `store_sync_rows`: each synced row's tombstone (the latest delete) and the rowid it has
///   in its table here (`NULL` when absent), so that a row the capture reports deleted by rowid
///   is found by key. A row kept whole also has its cells here, instead of in
///   `store_sync_cells`: their one stamp (`image_clock`, and `image_device`, a number of
///   `store_sync_devices`) and their values (`image`, a ``SyncRowImage``). A new device's snapshot writes the rows it can so, a third
///   of the writes of cells; such a row has no cells in `store_sync_cells` and no tombstone, and
///   is written out into cells before either is written (``expandImage(of:key:in:)``).
/// - `store_sync_devices`: a number for each device id that a row kept whole names, a few
///   bytes on each row instead of the id's 36.
/// - `store_sync_outbox`: the changes made here and not yet acknowledged, in order.
/// - `store_sync_held`: other devices' changes that could not be applied here yet
///   (``SyncHeldChange``), in the order they came, with the error each last met.
///
/// Their names start with `store_sync_`, which the change capture treats as internal: they
/// are never published.
enum SyncStorage {
    static let prefix = "store_sync_"

    static let schema = """
        CREATE TABLE IF NOT EXISTS store_sync_meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS store_sync_cells(
            tbl TEXT NOT NULL, pk NOT NULL, col TEXT NOT NULL, value, clock INTEGER NOT NULL, device TEXT NOT NULL,
            link INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (tbl, pk, col)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS store_sync_rows(
            tbl TEXT NOT NULL, pk NOT NULL, rid INTEGER, deleted_clock INTEGER, deleted_device TEXT,
            image BLOB, image_clock INTEGER, image_device INTEGER, PRIMARY KEY (tbl, pk)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS store_sync_rows_by_rowid ON store_sync_rows(tbl, rid) WHERE rid IS NOT NULL;
        CREATE TABLE IF NOT EXISTS store_sync_devices(id INTEGER PRIMARY KEY, device TEXT NOT NULL UNIQUE);
        CREATE TABLE IF NOT EXISTS store_sync_outbox(
            sequence INTEGER PRIMARY KEY AUTOINCREMENT, schema_version INTEGER NOT NULL,
            tbl TEXT NOT NULL, pk NOT NULL, col TEXT, value, clock INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS store_sync_held(
            position INTEGER PRIMARY KEY, device TEXT NOT NULL, sequence INTEGER NOT NULL, tbl TEXT NOT NULL, pk NOT NULL,
            col TEXT, value, clock INTEGER NOT NULL, code INTEGER NOT NULL, extended_code INTEGER NOT NULL, message TEXT NOT NULL);
        """

    /// Brings `store_sync_cells` of a database made before it had `link` up to date: the
    /// column, and the index of linked cells that refer to a parent instead of the index of
    /// every cell by value, or of every linked cell. A link that is `NULL` refers to no
    /// parent, and most rows have some (an item that is in no other item): leaving them out
    /// of the index spares writing and deleting an entry for each.
    static func upgradeCells(in db: Database) throws {
        let hasLink = try db.fetchValue(
            Bool.self, sql: "SELECT count(*) > 0 FROM pragma_table_info('store_sync_cells') WHERE name = 'link'")
        if hasLink != true { try db.execute(sql: "ALTER TABLE store_sync_cells ADD COLUMN link INTEGER NOT NULL DEFAULT 0") }
        try db.execute(
            script: """
                DROP INDEX IF EXISTS store_sync_cells_by_value;
                DROP INDEX IF EXISTS store_sync_cells_by_link;
                CREATE INDEX IF NOT EXISTS store_sync_cells_by_parent
                    ON store_sync_cells(tbl, col, value) WHERE link AND value IS NOT NULL;
                """)
    }

    /// Brings `store_sync_rows` of a database made before rows were kept whole up to date: the
    /// image columns.
    static func upgradeRows(in db: Database) throws {
        let hasImage = try db.fetchValue(
            Bool.self, sql: "SELECT count(*) > 0 FROM pragma_table_info('store_sync_rows') WHERE name = 'image'")
        guard hasImage != true else { return }
        try db.execute(
            script: """
                ALTER TABLE store_sync_rows ADD COLUMN image BLOB;
                ALTER TABLE store_sync_rows ADD COLUMN image_clock INTEGER;
                ALTER TABLE store_sync_rows ADD COLUMN image_device INTEGER;
                """)
    }

    /// Marks the cells of `tables`' foreign key columns as links, and no others, unless they
    /// were marked for the same columns already. Rows kept whole in a table that has link
    /// columns now are written out into cells first, to be found by their links.
    static func markLinks(of tables: [String: SyncedTable], in db: Database) throws {
        let links = tables.values.flatMap { table in table.linkColumns.map { "\(table.name).\($0)" } }.sorted()
        let signature = DatabaseValue.text(links.joined(separator: "\n"))
        guard try meta("links", in: db) != signature else { return }
        for table in tables.values where !table.linkColumns.isEmpty { try expandImages(of: table, in: db) }
        try db.execute(sql: "UPDATE store_sync_cells SET link = 0 WHERE link")
        for table in tables.values {
            for column in table.linkColumns {
                try db.execute(sql: "UPDATE store_sync_cells SET link = 1 WHERE tbl = ? AND col = ?", arguments: [table.name, column])
            }
        }
        try setMeta("links", signature, in: db)
    }

    /// A cell's value and stamp.
    struct Cell {
        let value: DatabaseValue
        let stamp: SyncStamp
    }

    // MARK: Meta

    static func meta(_ key: String, in db: Database) throws -> DatabaseValue? {
        try db.fetchValue(DatabaseValue.self, sql: "SELECT value FROM store_sync_meta WHERE key = ?", arguments: [key])
    }

    /// The device id, made when sync first opened the database.
    static func deviceID(in db: Database) throws -> String? {
        guard case .text(let device)? = try meta("device", in: db) else { return nil }
        return device
    }

    static func setMeta(_ key: String, _ value: DatabaseValue, in db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO store_sync_meta(key, value) VALUES (?, ?)", arguments: [key, value])
    }

    static func deleteMeta(_ key: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM store_sync_meta WHERE key = ?", arguments: [key])
    }

    /// The start of the `store_sync_meta` keys that record how far the store has read a server:
    /// its pull cursor (`cursor <server URL>`) and a snapshot under way (`snapshot …`).
    static let cursorKeyPrefix = "cursor "
    static let snapshotKeyPrefix = "snapshot "
    /// The start of the key that records the schema version of the store's last pull from a
    /// server: after a migration, the store reads that server's snapshot again.
    static let syncedSchemaKeyPrefix = "synced schema "

    /// Forgets how far the store has read every server, so that its next sync reads the
    /// server's snapshot again.
    static func forgetServerProgress(in db: Database) throws {
        try db.execute(
            sql: "DELETE FROM store_sync_meta WHERE substr(key, 1, length(?1)) = ?1 OR substr(key, 1, length(?2)) = ?2",
            arguments: [cursorKeyPrefix, snapshotKeyPrefix])
    }

    /// Gives the cells and deletes that the outbox's changes set here, still stamped by
    /// `device`, the stamp of `newDevice`: the changes will reach the server as `newDevice`'s.
    static func restampPendingChanges(from device: String, to newDevice: String, in db: Database) throws {
        try db.execute(
            sql: """
                UPDATE store_sync_cells SET device = ?2
                WHERE device = ?1 AND (tbl, pk, col, clock) IN (SELECT tbl, pk, col, clock FROM store_sync_outbox WHERE col IS NOT NULL)
                """,
            arguments: [device, newDevice])
        try db.execute(
            sql: """
                UPDATE store_sync_rows SET deleted_device = ?2
                WHERE deleted_device = ?1 AND (tbl, pk, deleted_clock) IN (SELECT tbl, pk, clock FROM store_sync_outbox WHERE col IS NULL)
                """,
            arguments: [device, newDevice])
    }

    /// The highest sequence given to a change recorded here, acknowledged or not (0 before the
    /// first): the outbox's `AUTOINCREMENT` counter, which never goes back.
    static func highestAssignedSequence(in db: Database) throws -> Int64 {
        try db.fetchValue(Int64.self, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'store_sync_outbox'") ?? 0
    }

    /// The highest migration applied (the schema version devices must agree on), 0 without any.
    static func schemaVersion(in db: Database) throws -> Int64 {
        let hasLedger = try db.fetchValue(
            Bool.self, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = ?",
            arguments: [Ledger.tableName])
        guard hasLedger == true else { return 0 }
        return try db.fetchValue(Int64.self, sql: "SELECT max(version) FROM \(Ledger.tableName)") ?? 0
    }

    // MARK: Cells

    static func cells(of table: String, key: DatabaseValue, in db: Database) throws -> [String: Cell] {
        let statement = try db.cachedStatement(sql: "SELECT col, value, clock, device FROM store_sync_cells WHERE tbl = ? AND pk = ?")
        try statement.bind([table, key])
        defer { statement.reset() }
        var cells: [String: Cell] = [:]
        while try statement.step() {
            guard case .text(let column) = statement.value(at: 0), case .integer(let clock) = statement.value(at: 2),
                case .text(let device) = statement.value(at: 3)
            else { continue }
            cells[column] = Cell(
                value: statement.value(at: 1), stamp: SyncStamp(timestamp: HybridTimestamp(rawValue: clock), device: device))
        }
        guard cells.isEmpty else { return cells }
        return try imagedCells(of: table, key: key, in: db) ?? [:]
    }

    static func setCell(_ table: SyncedTable, key: DatabaseValue, column: String, _ cell: Cell, in db: Database) throws {
        try expandImage(of: table, key: key, in: db)
        try db.execute(
            sql: "INSERT OR REPLACE INTO store_sync_cells(tbl, pk, col, value, clock, device, link) VALUES (?, ?, ?, ?, ?, ?, ?)",
            arguments: [
                table.name, key, column, cell.value, cell.stamp.timestamp.rawValue, cell.stamp.device, table.hasLinkColumn(spelled: column),
            ])
    }

    /// The keys of `table`'s rows whose cell `column`, a link, may refer to a parent whose
    /// value is `value`: the cells holding one of ``childValues(of:)``. The caller checks each
    /// candidate's parent as SQLite does.
    static func keys(of table: String, column: String, equalTo value: DatabaseValue, in db: Database) throws -> [DatabaseValue] {
        try db.fetchRows(
            sql: """
                SELECT pk FROM store_sync_cells INDEXED BY store_sync_cells_by_parent
                WHERE tbl = ?1 AND col = ?2 AND link AND value IS NOT NULL AND value IN (\(childValues(of: "?3")))
                ORDER BY pk
                """,
            arguments: [table, column, value]
        ).map { $0[0] }
    }

    /// SQL for the values a child's foreign key may hold to refer to the parent value
    /// `parameter`, a superset to check each against the parent as SQLite does. SQLite's
    /// foreign keys compare by the parent column's affinity, so a child may hold the value
    /// itself, or for a text, the integer or the real whose text it is exactly (a `NUMERIC`
    /// child column stores "42" as 42, a `REAL` one "42.0" as 42.0; "042" and "1e3" spell
    /// neither), or for a number, its text (an untyped child column keeps "5" for a parent 5).
    private static func childValues(of parameter: String) -> String {
        let spelled = { (type: String) in
            "(SELECT n FROM (SELECT CAST(\(parameter) AS \(type)) AS n) WHERE typeof(\(parameter)) = 'text' AND CAST(n AS TEXT) == \(parameter))"
        }
        let text = "(SELECT CAST(\(parameter) AS TEXT) WHERE typeof(\(parameter)) IN ('integer', 'real'))"
        return "\(parameter), \(spelled("INTEGER")), \(spelled("REAL")), \(text)"
    }

    // MARK: Rows

    static func tombstone(of table: String, key: DatabaseValue, in db: Database) throws -> SyncStamp? {
        let rows = try db.fetchRows(
            sql: "SELECT deleted_clock, deleted_device FROM store_sync_rows WHERE tbl = ? AND pk = ?", arguments: [table, key])
        guard case .integer(let clock)? = rows.first?[0], case .text(let device)? = rows.first?[1] else { return nil }
        return SyncStamp(timestamp: HybridTimestamp(rawValue: clock), device: device)
    }

    static func setTombstone(_ table: SyncedTable, key: DatabaseValue, _ stamp: SyncStamp, in db: Database) throws {
        try expandImage(of: table, key: key, in: db)
        try db.execute(
            sql: """
                INSERT INTO store_sync_rows(tbl, pk, deleted_clock, deleted_device) VALUES (?, ?, ?, ?)
                ON CONFLICT (tbl, pk) DO UPDATE SET deleted_clock = excluded.deleted_clock, deleted_device = excluded.deleted_device
                """,
            arguments: [table.name, key, stamp.timestamp.rawValue, stamp.device])
    }

    /// The rowid the row with `key` has in its table, as last recorded.
    static func rowID(of table: String, key: DatabaseValue, in db: Database) throws -> Int64? {
        try db.fetchValue(Int64.self, sql: "SELECT rid FROM store_sync_rows WHERE tbl = ? AND pk = ?", arguments: [table, key])
    }

    /// The key of the row last recorded at `rowID` in `table`.
    static func key(of table: String, rowID: Int64, in db: Database) throws -> DatabaseValue? {
        try db.fetchValue(DatabaseValue.self, sql: "SELECT pk FROM store_sync_rows WHERE tbl = ? AND rid = ?", arguments: [table, rowID])
    }

    /// Records that the row with `key` is at `rowID` (`nil`: absent); no other row is there any more.
    static func setRowID(_ table: String, key: DatabaseValue, _ rowID: Int64?, in db: Database) throws {
        if let rowID {
            try db.execute(
                sql: "UPDATE store_sync_rows SET rid = NULL WHERE tbl = ? AND rid = ? AND pk <> ?", arguments: [table, rowID, key])
        }
        try db.execute(
            sql: "INSERT INTO store_sync_rows(tbl, pk, rid) VALUES (?, ?, ?) ON CONFLICT (tbl, pk) DO UPDATE SET rid = excluded.rid",
            arguments: [table, key, rowID.map(DatabaseValue.integer) ?? .null])
    }

    /// Forgets whatever row was recorded at `rowID`: SQLite deleted it (a cascade).
    static func forgetRowID(_ table: String, _ rowID: Int64, in db: Database) throws {
        try db.execute(sql: "UPDATE store_sync_rows SET rid = NULL WHERE tbl = ? AND rid = ?", arguments: [table, rowID])
    }

    /// The rowids recorded for `table`'s rows.
    static func recordedRowIDs(of table: String, in db: Database) throws -> [Int64] {
        try db.fetchRows(sql: "SELECT rid FROM store_sync_rows WHERE tbl = ? AND rid IS NOT NULL ORDER BY rid", arguments: [table])
            .compactMap { if case .integer(let rowID) = $0[0] { rowID } else { nil } }
    }

    // MARK: Held changes

    /// The remote changes held here, in the order they came.
    static func heldChanges(in db: Database) throws -> [SyncHeldChange] {
        try db.fetchRows(
            sql: "SELECT device, sequence, tbl, pk, col, value, clock, code, extended_code, message FROM store_sync_held ORDER BY position"
        ).map { row in
            let change = try SyncChange(stored: row, device: try row.decode(String.self, column: "device"))
            let error = StoreError(
                code: ResultCode(rawValue: try row.decode(Int32.self, column: "code")),
                extendedCode: try row.decode(Int32.self, column: "extended_code"), message: try row.decode(String.self, column: "message"))
            return SyncHeldChange(change: change, error: error)
        }
    }

    /// Makes `held` the remote changes held here, replacing those there were.
    static func replaceHeldChanges(with held: [SyncHeldChange], in db: Database) throws {
        try db.execute(sql: "DELETE FROM store_sync_held")
        for entry in held {
            let change = entry.change
            var (column, value) = (DatabaseValue.null, DatabaseValue.null)
            if case .set(let name, let newValue) = change.operation { (column, value) = (.text(name), newValue) }
            try db.execute(
                sql: """
                    INSERT INTO store_sync_held(device, sequence, tbl, pk, col, value, clock, code, extended_code, message)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    .text(change.id.device), .integer(change.id.sequence), .text(change.table), change.key, column, value,
                    .integer(change.timestamp.rawValue), .integer(Int64(entry.error.code.rawValue)),
                    .integer(Int64(entry.error.extendedCode)), .text(entry.error.message),
                ])
        }
    }
}
