import SQLiteStoreCore

/// Records a local write transaction's changes of synced tables just before it commits: the
/// cells whose values changed get the transaction's timestamp, rows that are gone get a
/// tombstone, and each becomes an outbox entry. All in the transaction, so that the outbox
/// holds exactly what committed: a rollback, a failed statement or a savepoint rolled back
/// leaves no rows in the capture, hence nothing here.
///
/// Rows come from the change capture by rowid. A row's cells are compared with its merged
/// state: an update records only the columns it changed; a row new at its rowid (inserted,
/// or re-inserted after a delete) records all of them. A table reported as wholly changed is
/// compared row by row in full. Rows that nothing here knew, neither their rowid nor their key
/// (what a bulk insert makes), are recorded as sets, a few statements per chunk of rows
/// instead of several per cell, in the same order. Synced rows that waited for a parent that appeared here (a
/// remote item whose list is inserted locally) appear with it; that is the merge's doing, not
/// recorded.
struct SyncRecorder {
    let tables: [String: SyncedTable]
    let db: Database
    let device: String
    let clock: HybridClock
    /// The transaction's timestamp, taken when the first change is recorded.
    private var stamp: SyncStamp?
    private var schemaVersion: Int64?
    /// The rows that appeared here: their children that waited for them follow, unrecorded.
    private var appeared: [(table: SyncedTable, key: DatabaseValue)] = []

    init(tables: [String: SyncedTable], db: Database, device: String, clock: HybridClock) {
        self.tables = tables
        self.db = db
        self.device = device
        self.clock = clock
    }

    mutating func record(_ changes: StoreChanges) throws {
        for table in tables.values.sorted(by: { $0.name < $1.name }) where changes.touches(table.name) {
            try record(changes.changes(in: table.name), of: table)
        }
        try SyncMaterializer(tables: tables, db: db).materialize(childrenOf: appeared)
    }

    private mutating func record(_ changes: TableChanges, of table: SyncedTable) throws {
        var present = changes.inserted.union(changes.updated).sorted()
        var gone = changes.deleted.sorted()
        if changes.isWhollyChanged {
            present = try db.fetchRows(sql: "SELECT rowid FROM \(SQLIdentifier.quote(table.name)) ORDER BY rowid")
                .compactMap { if case .integer(let rowID) = $0[0] { rowID } else { nil } }
            let stillPresent = Set(present)
            gone = try SyncStorage.recordedRowIDs(of: table.name, in: db).filter { !stillPresent.contains($0) }
        }
        for start in stride(from: 0, to: present.count, by: Self.chunkSize) {
            let chunk = Array(present[start..<min(start + Self.chunkSize, present.count)])
            gone += try recordPresentRows(table, rowIDs: chunk)
        }
        for rowID in gone {
            guard let key = try SyncStorage.key(of: table.name, rowID: rowID, in: db) else { continue }
            try recordDeletionIfGone(table, key: key)
        }
    }

    /// The rows looked up and recorded as a set at a time: large, because every set statement
    /// inside a transaction first saves each page it changes to a statement journal (SQLite's
    /// undo for a statement that fails), and the cells of rows with random keys land on pages
    /// all over `store_sync_cells`, so each set saves most of its pages again. Recording 100,000
    /// notes in one transaction wrote 1.24 GB of statement journal in sets of 1,000 rows, 0.11 GB
    /// in sets of 100,000. A chunk's rows are held in memory at once: the process's peak was
    /// 30–45 MB higher for those 100,000 notes (`SyncBenchmark initial`, Benchmarks/README.md).
    static let chunkSize = 100_000

    /// Records the rows at `rowIDs`, in order: those that nothing here knew as sets, the others
    /// one by one; returns the rowids where there is no row.
    private mutating func recordPresentRows(_ table: SyncedTable, rowIDs: [Int64]) throws -> [Int64] {
        let known = try KnownRows(table, rowIDs: rowIDs, in: db)
        var unknown: [(rowID: Int64, key: DatabaseValue)] = []
        var gone: [Int64] = []
        for rowID in rowIDs {
            if let key = known.unknownKeys[rowID] {
                unknown.append((rowID, key))
                continue
            }
            try recordUnknownRows(table, unknown)  // first, so that the outbox keeps the rows' order
            unknown = []
            if try !known.presentRowIDs.contains(rowID) || !recordPresentRow(table, rowID: rowID) { gone.append(rowID) }
        }
        try recordUnknownRows(table, unknown)
        return gone
    }

    /// Records every cell of rows that nothing here knew, as sets: the cells with the
    /// transaction's stamp in key order, the outbox entries row after row, each row's rowid.
    private mutating func recordUnknownRows(_ table: SyncedTable, _ rows: [(rowID: Int64, key: DatabaseValue)]) throws {
        guard !rows.isEmpty else { return }
        let rowIDs = try BoundKeys(rows.map { .integer($0.rowID) }).argument
        if !table.columns.isEmpty {
            let stamp = try transactionStamp()
            let version = try schemaVersion ?? SyncStorage.schemaVersion(in: db)
            schemaVersion = version
            let cells = UnknownRowCells(table)
            try db.execute(
                sql: "INSERT OR REPLACE INTO store_sync_cells(tbl, pk, col, value, clock, device, link) "
                    + cells.select("?, \(cells.key), c.name, \(cells.value), ?, ?, c.link", in: .byKey),
                arguments: cells.arguments(
                    selecting: [.text(table.name), .integer(stamp.timestamp.rawValue), .text(stamp.device)], rowIDs: rowIDs))
            try db.execute(
                sql: "INSERT INTO store_sync_outbox(schema_version, tbl, pk, col, value, clock) "
                    + cells.select("?, ?, \(cells.key), c.name, \(cells.value), ?", in: .rowMajor),
                arguments: cells.arguments(
                    selecting: [.integer(version), .text(table.name), .integer(stamp.timestamp.rawValue)], rowIDs: rowIDs))
        }
        try db.execute(
            sql: """
                INSERT INTO store_sync_rows(tbl, pk, rid)
                SELECT ?, t.\(SQLIdentifier.quote(table.key)), t.rowid FROM json_each(?) AS ids
                JOIN \(SQLIdentifier.quote(table.name)) AS t ON t.rowid = ids.value WHERE true
                ON CONFLICT (tbl, pk) DO UPDATE SET rid = excluded.rid
                """,
            arguments: [table.name, rowIDs])
        appeared += rows.map { (table, $0.key) }
    }

    /// Records the changed cells of the row at `rowID`; returns `false` when there is no such row.
    private mutating func recordPresentRow(_ table: SyncedTable, rowID: Int64) throws -> Bool {
        let names = ([table.key] + table.columns).map(SQLIdentifier.quote).joined(separator: ", ")
        let rows = try db.fetchRows(sql: "SELECT \(names) FROM \(SQLIdentifier.quote(table.name)) WHERE rowid = ?", arguments: [rowID])
        guard let row = rows.first else { return false }
        let key = row[0]
        if let previous = try SyncStorage.key(of: table.name, rowID: rowID, in: db), !previous.isIdentical(to: key) {
            try recordDeletionIfGone(table, key: previous)  // its key changed, or another row took its rowid
        }
        let isNewHere = try SyncStorage.rowID(of: table.name, key: key, in: db) != rowID
        let merged = isNewHere ? nil : try SyncMaterializer(tables: tables, db: db).mergedRow(of: table, key: key)
        for (index, column) in table.columns.enumerated() {
            let value = row[index + 1]
            if let merged, merged[column]?.isIdentical(to: value) == true { continue }
            let stamp = try transactionStamp()
            try SyncStorage.setCell(table, key: key, column: column, .init(value: value, stamp: stamp), in: db)
            try appendToOutbox(table, key: key, column: column, value: value)
        }
        if isNewHere {
            try SyncStorage.setRowID(table.name, key: key, rowID, in: db)
            appeared.append((table, key))
        }
        return true
    }

    /// Records a tombstone for the row with `key` unless a row with that key is still in the table.
    private mutating func recordDeletionIfGone(_ table: SyncedTable, key: DatabaseValue) throws {
        let sql = "SELECT 1 FROM \(SQLIdentifier.quote(table.name)) WHERE \(SQLIdentifier.quote(table.key)) = ?"
        guard try db.fetchValue(Int64.self, sql: sql, arguments: [key]) == nil else { return }
        try SyncStorage.setTombstone(table, key: key, transactionStamp(), in: db)
        try SyncStorage.setRowID(table.name, key: key, nil, in: db)
        try appendToOutbox(table, key: key, column: nil, value: .null)
    }

    private mutating func appendToOutbox(_ table: SyncedTable, key: DatabaseValue, column: String?, value: DatabaseValue) throws {
        let version = try schemaVersion ?? SyncStorage.schemaVersion(in: db)
        schemaVersion = version
        try db.execute(
            sql: "INSERT INTO store_sync_outbox(schema_version, tbl, pk, col, value, clock) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [version, table.name, key, column.map(DatabaseValue.text) ?? .null, value, transactionStamp().timestamp.rawValue])
    }

    private mutating func transactionStamp() throws -> SyncStamp {
        if let stamp { return stamp }
        let stamp = SyncStamp(timestamp: try clock.tick(in: db), device: device)
        self.stamp = stamp
        return stamp
    }
}
