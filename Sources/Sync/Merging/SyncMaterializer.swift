import SQLiteStoreCore

/// Makes synced tables show the merged state of their rows (see <doc:SyncBetweenDevices>):
/// a row is present when its newest cell is newer than its tombstone, it has a cell for every
/// `NOT NULL` column without a default, and its parents are present. It holds its cells'
/// values; a foreign key whose parent is absent is NULL under `ON DELETE SET NULL`, and
/// otherwise the row is absent too, as its parent's delete would have made it.
///
/// Rows may be their own parent or each other's (a parent loop, of any length): such rows are
/// present when each of them is alive, as on the device that made them. Every walk over rows
/// keeps a visited set, so no loop makes it recurse or repeat without end.
struct SyncMaterializer {
    let tables: [String: SyncedTable]
    let db: Database

    /// What the merge rule says of one row.
    enum MergedState {
        /// The row should be absent: deleted, or missing a cell of a required column.
        case absent
        /// The row should hold these values.
        case present([String: DatabaseValue])
        /// The row is alive and should hold these values once the parents that its foreign keys
        /// without `SET NULL` name are here; `parents` lists those not in their tables now.
        case waiting([String: DatabaseValue], parents: [(foreignKey: SyncedTable.ForeignKey, value: DatabaseValue)])
    }

    typealias RowRef = (table: SyncedTable, key: DatabaseValue)

    /// The values `table` should hold for `key` by the merge rule, or `nil` when the row should
    /// be absent or waits for a parent that is not here.
    func mergedRow(of table: SyncedTable, key: DatabaseValue) throws -> [String: DatabaseValue]? {
        if case .present(let values) = try mergedState(of: table, key: key) { return values }
        return nil
    }

    /// What the merge rule says of the row of `table` with `key`, with its parents as the tables hold them now.
    func mergedState(of table: SyncedTable, key: DatabaseValue) throws -> MergedState {
        let cells = try SyncStorage.cells(of: table.name, key: key, in: db)
        guard let newest = cells.values.map(\.stamp).max(), table.requiredColumns.allSatisfy({ cells[$0] != nil }) else {
            return .absent
        }
        if let tombstone = try SyncStorage.tombstone(of: table.name, key: key, in: db), tombstone >= newest { return .absent }
        var values = cells.mapValues(\.value).filter { table.columns.contains($0.key) }
        var missing: [(foreignKey: SyncedTable.ForeignKey, value: DatabaseValue)] = []
        for foreignKey in table.foreignKeys {
            guard let parent = values[foreignKey.column], !parent.isNull, try !parentExists(foreignKey, parent) else { continue }
            if foreignKey.setsNull { values[foreignKey.column] = .null } else { missing.append((foreignKey, parent)) }
        }
        return missing.isEmpty ? .present(values) : .waiting(values, parents: missing)
    }

    /// Brings every row in `rows` (and the children of rows that appear) to its merged state.
    func materialize(_ rows: [RowRef]) throws {
        var queue = rows
        var index = 0
        var settled: Set<SyncRowIdentity<DatabaseValue>> = []
        while true {
            var waiting: [RowRef] = []
            while index < queue.count {
                let (table, key) = queue[index]
                index += 1
                if let next = try materialize(table, key: key) { queue += next } else { waiting.append((table, key)) }
            }
            let unsettled = waiting.filter { !settled.contains(SyncRowIdentity(table: $0.table.name, key: $0.key)) }
            guard !unsettled.isEmpty else { return }
            for row in unsettled { settled.insert(SyncRowIdentity(table: row.table.name, key: row.key)) }
            queue += try settleParentLoops(startingAt: unsettled)
        }
    }

    /// Brings the synced rows whose parent is `rows` to their merged state: rows that waited
    /// for a parent inserted here appear, a foreign key set to NULL takes its value again.
    func materialize(childrenOf rows: [RowRef]) throws {
        try materialize(rows.flatMap { try children(of: $0.table, key: $0.key) })
    }

    /// Brings one row to its merged state; returns its children when it was inserted or
    /// deleted, whose merged state may follow: they may appear with it, and a child that
    /// SQLite's delete leaves behind (an untyped column's 42 for the key "42") goes after it.
    /// Returns `nil`, leaving the row as it is, when it waits for a parent that is not here:
    /// ``settleParentLoops(startingAt:)`` decides on it once every row has been brought.
    private func materialize(_ table: SyncedTable, key: DatabaseValue) throws -> [RowRef]? {
        let state = try mergedState(of: table, key: key)
        let rowID = try self.rowID(of: table, key: key)
        switch (state, rowID) {
        case (.waiting, _):
            return nil
        case (.absent, nil):
            return []
        case (.absent, let rowID?):
            // Found while the row, which may hold the value they refer to, is still there.
            let children = try children(of: table, key: key)
            try remove(table, rowID: rowID)
            return children
        case (.present(let values), let rowID?):
            try update(table, rowID: rowID, to: values)
            try SyncStorage.setRowID(table.name, key: key, rowID, in: db)
            return []
        case (.present(let values), nil):
            try insert(table, key: key, values: values)
            return try children(of: table, key: key)
        }
    }

    // MARK: Parent loops

    /// Decides on rows that wait for a parent which is not here once every other row has been
    /// brought to its state: the rows of a parent loop (a row that is its own parent, rows that
    /// are each other's) wait for each other, and are present together when each is alive;
    /// every other waiting row is absent. Returns the rows whose merged state may follow: the
    /// children of the rows that appeared or went.
    ///
    /// The waiting rows and the waiting rows they wait for (found in the sync state, with a
    /// visited set) are written with foreign keys checked at the end; then, until nothing
    /// changes, every one of them whose parent is still not here is deleted, with the rows
    /// that follow it. What remains is each loop whose rows are all alive.
    private func settleParentLoops(startingAt waiting: [RowRef]) throws -> [RowRef] {
        var candidates: [(row: RowRef, values: [String: DatabaseValue])] = []
        var seen: Set<SyncRowIdentity<DatabaseValue>> = []
        var pending = waiting
        while let row = pending.popLast() {
            guard seen.insert(SyncRowIdentity(table: row.table.name, key: row.key)).inserted else { continue }
            guard case .waiting(let values, let parents) = try mergedState(of: row.table, key: row.key) else { continue }
            candidates.append((row, values))
            for parent in parents { pending += try waitingParents(parent.foreignKey, value: parent.value) }
        }
        guard !candidates.isEmpty else { return [] }
        return try db.withDeferredForeignKeys {
            var written: [(row: RowRef, rowID: Int64)] = []
            for (row, values) in candidates {
                if let rowID = try rowID(of: row.table, key: row.key) {
                    try update(row.table, rowID: rowID, to: values)
                    written.append((row, rowID))
                } else {
                    written.append((row, try insert(row.table, key: row.key, values: values)))
                }
            }
            var followers: [RowRef] = []
            var removedAny = true
            while removedAny {
                removedAny = false
                for (row, rowID) in written {
                    guard try rowExists(row.table, rowID: rowID), try hasMissingParent(row.table, rowID: rowID) else { continue }
                    followers += try children(of: row.table, key: row.key)
                    try remove(row.table, rowID: rowID)
                    removedAny = true
                }
            }
            for (row, rowID) in written {
                guard try rowExists(row.table, rowID: rowID) else { continue }
                followers += try children(of: row.table, key: row.key)
            }
            return followers
        }
    }

    /// The synced rows that may be the parent the foreign key value `value` refers to and wait
    /// for a parent themselves: a superset, the keys the sync state holds for that value as it is
    /// and as text (a `NUMERIC` column holds the key "7" as 7), checked later as SQLite checks.
    private func waitingParents(_ foreignKey: SyncedTable.ForeignKey, value: DatabaseValue) throws -> [RowRef] {
        guard let parent = tables.table(named: foreignKey.parentTable) else { return [] }
        var values = [value]
        switch value {
        case .integer, .real:
            if let text = try db.fetchValue(DatabaseValue.self, sql: "SELECT CAST(? AS TEXT)", arguments: [value]) { values.append(text) }
        case .null, .text, .blob:
            break
        }
        if foreignKey.parentColumn.matchesSQLiteIdentifier(parent.key) { return values.map { (parent, $0) } }
        var keys: [RowRef] = []
        for value in values {
            let rows = try db.fetchRows(
                sql: "SELECT DISTINCT pk FROM store_sync_cells WHERE tbl = ? AND col = ? AND value = ?",
                arguments: [.text(parent.name), .text(foreignKey.parentColumn), value])
            keys += rows.map { (parent, $0[0]) }
        }
        return keys
    }

    /// Whether the row at `rowID` has a foreign key without `SET NULL` whose parent is not here.
    private func hasMissingParent(_ table: SyncedTable, rowID: Int64) throws -> Bool {
        for foreignKey in table.foreignKeys where !foreignKey.setsNull {
            let sql = "SELECT \(SQLIdentifier.quote(foreignKey.column)) FROM \(SQLIdentifier.quote(table.name)) WHERE rowid = ?"
            guard let value = try db.fetchValue(DatabaseValue.self, sql: sql, arguments: [rowID]), !value.isNull else { continue }
            if try !parentExists(foreignKey, value) { return true }
        }
        return false
    }

    // MARK: Writing rows

    @discardableResult
    private func insert(_ table: SyncedTable, key: DatabaseValue, values: [String: DatabaseValue]) throws -> Int64 {
        let columns = table.columns.filter { values[$0] != nil }
        let names = ([table.key] + columns).map(SQLIdentifier.quote).joined(separator: ", ")
        let marks = Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")
        try db.execute(
            sql: "INSERT INTO \(SQLIdentifier.quote(table.name)) (\(names)) VALUES (\(marks))",
            arguments: [key] + columns.map { values[$0] ?? .null })
        let rowID = db.lastInsertedRowID
        try SyncStorage.setRowID(table.name, key: key, rowID, in: db)
        return rowID
    }

    private func update(_ table: SyncedTable, rowID: Int64, to values: [String: DatabaseValue]) throws {
        let columns = table.columns.filter { values[$0] != nil }
        guard !columns.isEmpty else { return }
        let names = columns.map(SQLIdentifier.quote).joined(separator: ", ")
        let quotedTable = SQLIdentifier.quote(table.name)
        let current = try db.fetchRows(sql: "SELECT \(names) FROM \(quotedTable) WHERE rowid = ?", arguments: [rowID])
        guard let current = current.first else { return }
        let changed = columns.indices.filter { index in
            values[columns[index]].map { !$0.isIdentical(to: current[index]) } ?? false
        }
        guard !changed.isEmpty else { return }
        let assignments = changed.map { "\(SQLIdentifier.quote(columns[$0])) = ?" }.joined(separator: ", ")
        try db.execute(
            sql: "UPDATE \(quotedTable) SET \(assignments) WHERE rowid = ?",
            arguments: changed.map { values[columns[$0]] ?? .null } + [rowID])
    }

    /// Deletes a row with the synced rows that follow it (`CASCADE`, `RESTRICT`, `NO ACTION`):
    /// a row deleted on another device takes them with it here too, whatever the rule. They are
    /// found by a walk with a visited set, so that a parent loop ends, and deleted followers
    /// first, with foreign keys checked at the end: rows of a loop refer to each other whatever
    /// the order, and `RESTRICT` would refuse to delete any of them first.
    private func remove(_ table: SyncedTable, rowID: Int64) throws {
        var doomed: [(table: SyncedTable, rowID: Int64)] = []
        var seen: Set<SyncRowIdentity<Int64>> = []
        var pending = [(table: table, rowID: rowID)]
        while let row = pending.popLast() {
            guard seen.insert(SyncRowIdentity(table: row.table.name, key: row.rowID)).inserted else { continue }
            doomed.append(row)
            let quotedTable = SQLIdentifier.quote(row.table.name)
            for child in tables.values.sorted(by: { $0.name < $1.name }) {
                for foreignKey in child.foreignKeys where foreignKey.parentTable == row.table.name && !foreignKey.setsNull {
                    let childRowIDs = try db.fetchRows(
                        sql: """
                            SELECT rowid FROM \(SQLIdentifier.quote(child.name)) WHERE \(SQLIdentifier.quote(foreignKey.column)) =
                            (SELECT \(SQLIdentifier.quote(foreignKey.parentColumn)) FROM \(quotedTable) WHERE rowid = ?)
                            """, arguments: [row.rowID])
                    for case .integer(let childRowID) in childRowIDs.map({ $0[0] }) { pending.append((child, childRowID)) }
                }
            }
        }
        try db.withDeferredForeignKeys {
            for row in doomed.reversed() {
                try db.execute(sql: "DELETE FROM \(SQLIdentifier.quote(row.table.name)) WHERE rowid = ?", arguments: [row.rowID])
                try SyncStorage.forgetRowID(row.table.name, row.rowID, in: db)
            }
        }
    }

    // MARK: Looking rows up

    private func rowID(of table: SyncedTable, key: DatabaseValue) throws -> Int64? {
        try db.fetchValue(
            Int64.self, sql: "SELECT rowid FROM \(SQLIdentifier.quote(table.name)) WHERE \(SQLIdentifier.quote(table.key)) = ?",
            arguments: [key])
    }

    private func rowExists(_ table: SyncedTable, rowID: Int64) throws -> Bool {
        try db.fetchValue(Int64.self, sql: "SELECT 1 FROM \(SQLIdentifier.quote(table.name)) WHERE rowid = ?", arguments: [rowID]) != nil
    }

    private func parentExists(_ foreignKey: SyncedTable.ForeignKey, _ value: DatabaseValue) throws -> Bool {
        let sql = "SELECT 1 FROM \(SQLIdentifier.quote(foreignKey.parentTable)) WHERE \(SQLIdentifier.quote(foreignKey.parentColumn)) = ?"
        return try db.fetchValue(Int64.self, sql: sql, arguments: [value]) != nil
    }

    /// The synced rows whose foreign key points at the row with `key`: they may appear with it.
    private func children(of table: SyncedTable, key: DatabaseValue) throws -> [RowRef] {
        var children: [RowRef] = []
        for child in tables.values.sorted(by: { $0.name < $1.name }) {
            for foreignKey in child.foreignKeys where foreignKey.parentTable == table.name {
                let parentValue =
                    foreignKey.parentColumn.matchesSQLiteIdentifier(table.key)
                    ? key
                    : try db.fetchValue(
                        DatabaseValue.self,
                        sql: "SELECT \(SQLIdentifier.quote(foreignKey.parentColumn)) FROM \(SQLIdentifier.quote(table.name)) "
                            + "WHERE \(SQLIdentifier.quote(table.key)) = ?", arguments: [key]) ?? .null
                for childKey in try SyncStorage.keys(of: child.name, column: foreignKey.column, equalTo: parentValue, in: db) {
                    children.append((child, childKey))
                }
            }
        }
        return children
    }
}
