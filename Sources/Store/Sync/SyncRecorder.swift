/// Records a local write transaction's changes of synced tables just before it commits: the
/// cells whose values changed get the transaction's timestamp, rows that are gone get a
/// tombstone, and each becomes an outbox entry. All in the transaction, so that the outbox
/// holds exactly what committed: a rollback, a failed statement or a savepoint rolled back
/// leaves no rows in the capture, hence nothing here.
///
/// Rows come from the change capture by rowid. A row's cells are compared with its merged
/// state: an update records only the columns it changed; a row new at its rowid (inserted,
/// or re-inserted after a delete) records all of them. A table reported as wholly changed is
/// compared row by row in full. Synced rows that waited for a parent that appeared here (a
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
            gone = try SyncStorage.recordedRowIDs(of: table.name, in: db).filter { !Set(present).contains($0) }
        }
        for rowID in present where try !recordPresentRow(table, rowID: rowID) { gone.append(rowID) }
        for rowID in gone {
            guard let key = try SyncStorage.key(of: table.name, rowID: rowID, in: db) else { continue }
            try recordDeletionIfGone(table, key: key)
        }
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
        try SyncStorage.setTombstone(table.name, key: key, transactionStamp(), in: db)
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
