import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// Merges a snapshot page (a `SyncSnapshotPage`: rows with their winning cells and latest
/// deletes) into the store's sync state and its synced tables, in the write transaction the
/// client opens, with set-based statements where it can rather than a few per cell.
///
/// Each cell and delete is merged into `store_sync_cells` and `store_sync_rows`, replacing the
/// one there only when its stamp is greater, the rule of ``SyncApplier``: when the store holds
/// nothing of the page's rows (a new device's case), all of them at once from the page read as
/// tables (``Database/withValuesTable(_:named:_:)``); otherwise by an upsert each. Each row is
/// listed in a temporary table, marked when one of them won (rows where nothing won are left as
/// they are) and when a cell of every column won (`complete`). Rows absent here, complete and
/// present by the merge rule (a new device's case) are then inserted per table in one
/// statement; every other row of the page goes through ``SyncMaterializer`` one by one, as do
/// the children that waited for the rows inserted. What changes is published as remote
/// changes and never recorded in the outbox.
struct SyncSnapshotApplier {
    let tables: [String: SyncedTable]
    let db: Database
    let clock: HybridClock

    private static let scratch = """
        CREATE TEMP TABLE IF NOT EXISTS store_sync_incoming_rows(
            tbl TEXT NOT NULL, pk NOT NULL, won INTEGER NOT NULL DEFAULT 0, complete INTEGER NOT NULL DEFAULT 0,
            fast INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (tbl, pk)) WITHOUT ROWID;
        DELETE FROM temp.store_sync_incoming_rows;
        """

    /// - Parameters:
    ///   - page: The snapshot page.
    ///   - stagedAhead: The page staged before the write transaction, off the writer; used when
    ///     staged for the tables synced here now, otherwise the page is staged again.
    /// - Throws: `StoreError` when the page's schema version is not the store's, or it names a
    ///   table, a column or a device index this store cannot take; the rows merged before it
    ///   are undone with the write transaction, which the throw rolls back: nothing of the page
    ///   is applied.
    func apply(_ page: SyncSnapshotPage, stagedAhead: SyncSnapshotStaging?) throws {
        let version = try SyncStorage.schemaVersion(in: db)
        guard page.schemaVersion == version else { throw StoreError.syncSchemaMismatch(batch: page.schemaVersion, store: version) }
        try db.execute(script: Self.scratch)
        let staging =
            try stagedAhead.flatMap { $0.syncedTables == tables ? $0 : nil } ?? SyncSnapshotStaging(page, tables: tables, imaging: true)
        let (touched, imaged) = try merge(page, staging)
        let materializer = SyncMaterializer(tables: tables, db: db)
        for table in touched { try insertAbsentRows(of: table) }
        try materializer.materialize(try stagedRows(fast: false))
        for table in touched where hasChildTables(table) {
            let inserted = try stagedRows(fast: true) + imaged
            try materializer.materialize(childrenOf: inserted.filter { $0.table.name == table.name })
        }
        try db.execute(sql: "DELETE FROM temp.store_sync_incoming_rows")
    }

    // MARK: Merging

    /// Merges the page's cells and deletes, `staged` (checked, and laid out with the rows that
    /// can be kept whole set apart): each replaces the one here when its stamp is greater. Lists the page's rows, marking `won` those where one did: the others'
    /// merged state, hence their row in the table, stays as it was (the snapshot of a device's
    /// own rows changes nothing); and `complete` those where a cell of every column won, whose
    /// merged state therefore has every column. Returns the tables the page touches.
    ///
    /// When the store holds nothing of the page's rows (a new device's case), everything in the
    /// page wins: SQL reads it as tables (``SyncSnapshotStaging``) and inserts it in a few
    /// statements, the rows that can be kept whole straight into their tables and
    /// `store_sync_rows` (also returned). Otherwise the page's rows kept whole here are written
    /// out into cells, and each cell and delete is merged by an upsert of its own.
    private func merge(
        _ page: SyncSnapshotPage, _ staged: SyncSnapshotStaging
    ) throws -> (tables: [SyncedTable], imaged: [(table: SyncedTable, key: DatabaseValue)]) {
        var staging = staged
        if try !imagedRowsAreAbsent(staging) { staging = try SyncSnapshotStaging(page, tables: tables, imaging: false) }
        let imaged = try db.withValuesTable(staging.rows, named: "store_sync_page_rows") {
            guard try holdsNothing(of: staging) else {
                try SyncStorage.expandImages(ofRowsListedIn: "store_sync_page_rows", tables: tables, in: db)
                try mergeOneByOne(staging.images.isEmpty ? staging : SyncSnapshotStaging(page, tables: tables, imaging: false))
                return [(table: SyncedTable, key: DatabaseValue)]()
            }
            if staging.hasRowsOutsideImages {
                try db.withValuesTable(staging.cells, named: "store_sync_page_cells") {
                    for sql in [Self.insertNewRows, Self.insertNewCells, Self.insertNewDeletes] { try db.prepare(sql: sql).execute() }
                }
            }
            return try insertImagedRows(staging)
        }
        try clock.observe(HybridTimestamp(rawValue: staging.newest), in: db)
        return (staging.tables, imaged)
    }

    /// Whether no row of `staging`'s ``SyncSnapshotStaging/images`` is in its table here (a row
    /// the sync state does not know): those are merged as cells, with the row already there.
    private func imagedRowsAreAbsent(_ staging: SyncSnapshotStaging) throws -> Bool {
        for (name, images) in staging.images {
            guard let table = tables[name] else { continue }
            let present = try db.withValuesTable(images, named: "store_sync_page_images") {
                try db.fetchValue(
                    Bool.self,
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM store_sync_page_images i JOIN \(SQLIdentifier.quote(table.name)) t
                        ON t.\(SQLIdentifier.quote(table.key)) = i.pk)
                        """)
            }
            if present == true { return false }
        }
        return true
    }

    /// Inserts the rows of `staging`'s ``SyncSnapshotStaging/images`` into their tables, and
    /// their entries with their rowids, stamps and images into `store_sync_rows`; returns them.
    private func insertImagedRows(_ staging: SyncSnapshotStaging) throws -> [(table: SyncedTable, key: DatabaseValue)] {
        var inserted: [(table: SyncedTable, key: DatabaseValue)] = []
        for (name, images) in staging.images.sorted(by: { $0.key < $1.key }) {
            guard let table = tables[name] else { continue }
            let quotedTable = SQLIdentifier.quote(table.name)
            let names = ([table.key] + table.columns).map(SQLIdentifier.quote).joined(separator: ", ")
            let values = (["pk"] + table.columns.indices.map { "c\($0)" }).joined(separator: ", ")
            let rows = "store_sync_page_images i JOIN \(quotedTable) t ON t.\(SQLIdentifier.quote(table.key)) = i.pk"
            try db.withValuesTable(images, named: "store_sync_page_images") {
                let largest = try db.fetchValue(Int64.self, sql: "SELECT max(rowid) FROM \(quotedTable)") ?? 0
                try db.execute(sql: "INSERT INTO \(quotedTable) (\(names)) SELECT \(values) FROM store_sync_page_images")
                try forgetRowIDs(of: table, above: largest, insertedAs: rows)
                try db.execute(sql: "INSERT OR IGNORE INTO store_sync_devices(device) SELECT DISTINCT device FROM store_sync_page_images")
                try db.execute(
                    sql: """
                        INSERT INTO store_sync_rows(tbl, pk, rid, image, image_clock, image_device)
                        SELECT ?, i.pk, t.rowid, i.image, i.clock, (SELECT id FROM store_sync_devices WHERE device = i.device) FROM \(rows)
                        """,
                    arguments: [table.name])
            }
            inserted += images.column("pk").map { (table, $0) }
        }
        return inserted
    }

    /// Whether the store holds no cell and no delete of any of the page's rows, and the page
    /// gives each row once. Checked per table by the range of the page's keys there, in SQLite's
    /// order, rather than key by key: the ranges ``SyncSnapshotStaging`` found while reading the
    /// page's rows in ascending order, or else those of the page's rows read as a table.
    private func holdsNothing(of staging: SyncSnapshotStaging) throws -> Bool {
        guard let ranges = staging.keyRanges else { return try holdsNothingOfRows() }
        let statement = try db.cachedStatement(
            sql: """
                SELECT EXISTS (SELECT 1 FROM store_sync_cells WHERE tbl = ?1 AND pk BETWEEN ?2 AND ?3)
                    OR EXISTS (SELECT 1 FROM store_sync_rows WHERE tbl = ?1 AND pk BETWEEN ?2 AND ?3)
                """)
        defer { statement.reset() }
        for (table, range) in ranges {
            try statement.bind([DatabaseValue.text(table), range.first, range.last])
            guard try statement.step(), statement.value(at: 0) == .integer(0) else { return false }
        }
        return true
    }

    /// ``holdsNothing(of:)`` for the page's rows read as a table (`store_sync_page_rows`),
    /// whatever their order.
    private func holdsNothingOfRows() throws -> Bool {
        let statement = try db.prepare(
            sql: """
                SELECT NOT EXISTS (
                    SELECT 1 FROM (
                        SELECT tbl, min(pk) AS low, max(pk) AS high, count(*) = count(DISTINCT pk) AS once
                        FROM store_sync_page_rows GROUP BY tbl) p
                    WHERE NOT p.once
                       OR EXISTS (SELECT 1 FROM store_sync_cells c WHERE c.tbl = p.tbl AND c.pk BETWEEN p.low AND p.high)
                       OR EXISTS (SELECT 1 FROM store_sync_rows r WHERE r.tbl = p.tbl AND r.pk BETWEEN p.low AND p.high))
                """)
        _ = try statement.step()
        return statement.integer(at: 0) == 1
    }

    /// Clears the rowids that other entries keep of the rows just inserted into `table`: those
    /// above `largest`, its largest rowid before (SQLite's choice while that is not the largest
    /// there is), else those the join `inserted` gives.
    private func forgetRowIDs(of table: SyncedTable, above largest: Int64, insertedAs inserted: String) throws {
        if largest < Int64.max {
            try db.execute(sql: "UPDATE store_sync_rows SET rid = NULL WHERE tbl = ? AND rid > ?", arguments: [table.name, largest])
        } else {
            try db.execute(
                sql: "UPDATE store_sync_rows SET rid = NULL WHERE tbl = ? AND rid IN (SELECT t.rowid FROM \(inserted))",
                arguments: [table.name])
        }
    }

    private static let insertNewRows = """
        INSERT INTO temp.store_sync_incoming_rows(tbl, pk, won, complete)
        SELECT tbl, pk, won_if_new, complete_if_new FROM store_sync_page_rows WHERE NOT imaged
        """

    private static let insertNewCells = """
        INSERT INTO store_sync_cells(tbl, pk, col, value, clock, device, link)
        SELECT tbl, pk, col, value, clock, device, link FROM store_sync_page_cells
        """

    private static let insertNewDeletes = """
        INSERT INTO store_sync_rows(tbl, pk, deleted_clock, deleted_device)
        SELECT tbl, pk, deleted_clock, deleted_device FROM store_sync_page_rows WHERE deleted_clock IS NOT NULL
        """

    /// Merges the staged rows' deletes and cells by an upsert each, in the page's order, and
    /// lists the rows with their marks, learnt from which upserts wrote.
    private func mergeOneByOne(_ staging: SyncSnapshotStaging) throws {
        let cellUpsert = try db.cachedStatement(
            sql: """
                INSERT INTO store_sync_cells(tbl, pk, col, value, clock, device, link) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (tbl, pk, col) DO UPDATE SET value = excluded.value, clock = excluded.clock, device = excluded.device
                WHERE (excluded.clock, excluded.device) > (store_sync_cells.clock, store_sync_cells.device)
                """)
        let deleteUpsert = try db.cachedStatement(
            sql: """
                INSERT INTO store_sync_rows(tbl, pk, deleted_clock, deleted_device) VALUES (?, ?, ?, ?)
                ON CONFLICT (tbl, pk) DO UPDATE SET deleted_clock = excluded.deleted_clock, deleted_device = excluded.deleted_device
                WHERE store_sync_rows.deleted_clock IS NULL
                   OR (excluded.deleted_clock, excluded.deleted_device) > (store_sync_rows.deleted_clock, store_sync_rows.deleted_device)
                """)
        let rowInsert = try db.cachedStatement(
            sql: """
                INSERT INTO temp.store_sync_incoming_rows(tbl, pk, won, complete) VALUES (?, ?, ?, ?)
                ON CONFLICT (tbl, pk) DO UPDATE SET won = max(won, excluded.won), complete = max(complete, excluded.complete)
                """)
        let rows = staging.rows
        let (rowNumbers, names, keys, columnCounts) = (rows.column("ri"), rows.column("tbl"), rows.column("pk"), rows.column("columns"))
        let deletes = (clock: rows.column("deleted_clock"), device: rows.column("deleted_device"))
        let cellRowNumbers = staging.cells.column("ri")
        let cellValues = ["col", "value", "clock", "device", "link"].map(staging.cells.column)
        var cell = 0
        for row in rowNumbers.indices {
            // The row's table and key are parameters 1 and 2 of each statement, bound once per row.
            for statement in [deleteUpsert, cellUpsert, rowInsert] { try bind(statement, [names[row], keys[row]], from: 1) }
            var won = false
            if !deletes.clock[row].isNull { won = try run(deleteUpsert, [deletes.clock[row], deletes.device[row]]) }
            var cellsWon: Int64 = 0
            while cell < cellRowNumbers.count, cellRowNumbers[cell] == rowNumbers[row] {
                if try run(cellUpsert, cellValues.map { $0[cell] }) {
                    won = true
                    cellsWon += 1
                }
                cell += 1
            }
            _ = try run(rowInsert, [.integer(won ? 1 : 0), .integer(columnCounts[row] == .integer(cellsWon) ? 1 : 0)])
        }
    }

    /// Binds `values` to the parameters from `first` on, leaving those before bound as they were.
    private func bind(_ statement: Statement, _ values: [DatabaseValue], from first: Int) throws {
        statement.reset()
        for (offset, value) in values.enumerated() { try statement.bind(value, at: first + offset) }
    }

    /// Runs an insert or upsert whose table and key are bound, with `values` from parameter 3
    /// on; returns whether it wrote a row.
    private func run(_ statement: Statement, _ values: [DatabaseValue]) throws -> Bool {
        try bind(statement, values, from: 3)
        try statement.execute()
        return db.changesCount > 0
    }

    // MARK: Materializing

    /// Inserts, in one statement, the staged rows of `table` that are absent here and present by
    /// the merge rule with a cell for every column (``SyncMaterializer/mergedRow(of:key:)`` in
    /// SQL), and records their rowids; they are marked `fast`, the others are left to the materializer.
    private func insertAbsentRows(of table: SyncedTable) throws {
        guard !table.columns.isEmpty else { return }
        let quotedTable = SQLIdentifier.quote(table.name)
        let quotedKey = SQLIdentifier.quote(table.key)
        // ?1 is the table's name, ?2… the names of the foreign key columns whose parent must be here.
        let parentChecks = table.foreignKeys.filter { !$0.setsNull && table.columns.contains($0.column) }
        let parentMissing = parentChecks.enumerated().map { index, foreignKey in
            """
            AND NOT EXISTS (SELECT 1 FROM store_sync_cells f WHERE f.tbl = ?1 AND f.pk = p.pk AND f.col = ?\(index + 2)
                AND f.value IS NOT NULL AND NOT EXISTS (\(parentLookup(foreignKey, value: "f.value"))))
            """
        }.joined(separator: "\n")
        try db.execute(
            sql: """
                UPDATE temp.store_sync_incoming_rows AS p SET fast = 1
                WHERE p.tbl = ?1 AND p.won = 1 AND p.complete = 1 AND NOT EXISTS (SELECT 1 FROM \(quotedTable) WHERE \(quotedKey) = p.pk)
                AND NOT EXISTS (
                    SELECT 1 FROM store_sync_rows r WHERE r.tbl = ?1 AND r.pk = p.pk AND r.deleted_clock IS NOT NULL
                    AND (r.deleted_clock, r.deleted_device) >= (
                        SELECT n.clock, n.device FROM store_sync_cells n WHERE n.tbl = ?1 AND n.pk = p.pk
                        ORDER BY n.clock DESC, n.device DESC LIMIT 1))
                \(parentMissing)
                """,
            arguments: [DatabaseValue.text(table.name)] + parentChecks.map { DatabaseValue.text($0.column) })
        let values = table.columns.enumerated().map { index, column in
            guard let foreignKey = table.foreignKeys.first(where: { $0.column == column && $0.setsNull }) else { return "c\(index).value" }
            return
                "CASE WHEN c\(index).value IS NULL OR EXISTS (\(parentLookup(foreignKey, value: "c\(index).value"))) THEN c\(index).value END"
        }
        let joins = table.columns.indices.map { index in
            "JOIN store_sync_cells c\(index) ON c\(index).tbl = ?1 AND c\(index).pk = p.pk AND c\(index).col = ?\(index + 2)"
        }
        let names = ([table.key] + table.columns).map(SQLIdentifier.quote).joined(separator: ", ")
        try db.execute(
            sql: """
                INSERT INTO \(quotedTable) (\(names))
                SELECT p.pk, \(values.joined(separator: ", ")) FROM temp.store_sync_incoming_rows p
                \(joins.joined(separator: "\n"))
                WHERE p.tbl = ?1 AND p.fast = 1 ORDER BY p.pk
                """,
            arguments: [DatabaseValue.text(table.name)] + table.columns.map(DatabaseValue.text))
        let inserted = """
            SELECT t.rowid AS rid, p.pk AS pk FROM temp.store_sync_incoming_rows p JOIN \(quotedTable) t ON t.\(quotedKey) = p.pk
            WHERE p.tbl = ?1 AND p.fast = 1
            """
        try db.execute(
            sql: "UPDATE store_sync_rows SET rid = NULL WHERE tbl = ?1 AND rid IN (SELECT rid FROM (\(inserted)))",
            arguments: [DatabaseValue.text(table.name)])
        try db.execute(
            sql: """
                INSERT INTO store_sync_rows(tbl, pk, rid) SELECT ?1, pk, rid FROM (\(inserted)) WHERE true
                ON CONFLICT (tbl, pk) DO UPDATE SET rid = excluded.rid
                """,
            arguments: [DatabaseValue.text(table.name)])
    }

    /// A query of the parent row that the foreign key value `value` (a cell's) refers to, found
    /// as SQLite's foreign keys find it: by the parent column's affinity. The unary `+` takes
    /// the cell column's own (`BLOB`) affinity away, so that a child's number 42 finds the
    /// parent "42", as a bound value does in ``SyncMaterializer``.
    private func parentLookup(_ foreignKey: SyncedTable.ForeignKey, value: String) -> String {
        "SELECT 1 FROM \(SQLIdentifier.quote(foreignKey.parentTable)) WHERE \(SQLIdentifier.quote(foreignKey.parentColumn)) = +\(value)"
    }

    /// The staged rows whose merged state changed: those inserted in one statement (`fast`), or the others.
    private func stagedRows(fast: Bool) throws -> [(table: SyncedTable, key: DatabaseValue)] {
        try db.fetchRows(
            sql: "SELECT tbl, pk FROM temp.store_sync_incoming_rows WHERE won = 1 AND fast = ? ORDER BY tbl, pk", arguments: [fast ? 1 : 0]
        ).compactMap { row in
            guard case .text(let name) = row[0], let table = tables[name] else { return nil }
            return (table, row[1])
        }
    }

    /// Whether a synced table has a foreign key to `table`: its rows may wait for `table`'s.
    private func hasChildTables(_ table: SyncedTable) -> Bool {
        tables.values.contains { child in child.foreignKeys.contains { $0.parentTable == table.name } }
    }
}
