/// Makes synced tables show the merged state of their rows (see <doc:SyncBetweenDevices>):
/// a row is present when its newest cell is newer than its tombstone, it has a cell for every
/// `NOT NULL` column without a default, and its parents are present. It holds its cells'
/// values; a foreign key whose parent is absent is NULL under `ON DELETE SET NULL`, and
/// otherwise the row is absent too, as its parent's delete would have made it.
struct SyncMaterializer {
    let tables: [String: SyncedTable]
    let db: Database

    /// The values `table` should hold for `key` by the merge rule, or `nil` when the row should be absent.
    func mergedRow(of table: SyncedTable, key: DatabaseValue) throws -> [String: DatabaseValue]? {
        let cells = try SyncStorage.cells(of: table.name, key: key, in: db)
        guard let newest = cells.values.map(\.stamp).max(), table.requiredColumns.allSatisfy({ cells[$0] != nil }) else {
            return nil
        }
        if let tombstone = try SyncStorage.tombstone(of: table.name, key: key, in: db), tombstone >= newest { return nil }
        var values = cells.mapValues(\.value).filter { table.columns.contains($0.key) }
        for foreignKey in table.foreignKeys {
            guard let parent = values[foreignKey.column], !parent.isNull, try !parentExists(foreignKey, parent) else { continue }
            guard foreignKey.setsNull else { return nil }
            values[foreignKey.column] = .null
        }
        return values
    }

    /// Brings every row in `rows` (and the children of rows that appear) to its merged state.
    func materialize(_ rows: [(table: SyncedTable, key: DatabaseValue)]) throws {
        var queue = rows
        var index = 0
        while index < queue.count {
            let (table, key) = queue[index]
            index += 1
            queue += try materialize(table, key: key)
        }
    }

    /// Brings the synced rows whose parent is `rows` to their merged state: rows that waited
    /// for a parent inserted here appear, a foreign key set to NULL takes its value again.
    func materialize(childrenOf rows: [(table: SyncedTable, key: DatabaseValue)]) throws {
        try materialize(rows.flatMap { try children(of: $0.table, key: $0.key) })
    }

    /// Brings one row to its merged state; returns its children when it was inserted or
    /// deleted, whose merged state may follow: they may appear with it, and a child that
    /// SQLite's delete leaves behind (an untyped column's 42 for the key "42") goes after it.
    private func materialize(_ table: SyncedTable, key: DatabaseValue) throws -> [(table: SyncedTable, key: DatabaseValue)] {
        let merged = try mergedRow(of: table, key: key)
        let quotedTable = SQLIdentifier.quote(table.name)
        let rowID = try db.fetchValue(
            Int64.self, sql: "SELECT rowid FROM \(quotedTable) WHERE \(SQLIdentifier.quote(table.key)) = ?", arguments: [key])
        switch (merged, rowID) {
        case (nil, nil):
            return []
        case (nil, let rowID?):
            // Found while the row, which may hold the value they refer to, is still there.
            let children = try children(of: table, key: key)
            try remove(table, rowID: rowID)
            return children
        case (let values?, let rowID?):
            try update(table, rowID: rowID, to: values)
            try SyncStorage.setRowID(table.name, key: key, rowID, in: db)
            return []
        case (let values?, nil):
            let columns = table.columns.filter { values[$0] != nil }
            let names = ([table.key] + columns).map(SQLIdentifier.quote).joined(separator: ", ")
            let marks = Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")
            try db.execute(
                sql: "INSERT INTO \(quotedTable) (\(names)) VALUES (\(marks))",
                arguments: [key] + columns.map { values[$0] ?? .null })
            try SyncStorage.setRowID(table.name, key: key, db.lastInsertedRowID, in: db)
            return try children(of: table, key: key)
        }
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

    /// Deletes a row, after the synced rows that follow it (`CASCADE`, `RESTRICT`, `NO ACTION`):
    /// a row deleted on another device takes them with it here too, whatever the rule.
    private func remove(_ table: SyncedTable, rowID: Int64) throws {
        let quotedTable = SQLIdentifier.quote(table.name)
        for child in tables.values.sorted(by: { $0.name < $1.name }) {
            for foreignKey in child.foreignKeys where foreignKey.parentTable == table.name && !foreignKey.setsNull {
                let childRowIDs = try db.fetchRows(
                    sql: """
                        SELECT rowid FROM \(SQLIdentifier.quote(child.name)) WHERE \(SQLIdentifier.quote(foreignKey.column)) =
                        (SELECT \(SQLIdentifier.quote(foreignKey.parentColumn)) FROM \(quotedTable) WHERE rowid = ?)
                        """, arguments: [rowID])
                for case .integer(let childRowID) in childRowIDs.map({ $0[0] }) { try remove(child, rowID: childRowID) }
            }
        }
        try db.execute(sql: "DELETE FROM \(quotedTable) WHERE rowid = ?", arguments: [rowID])
        try SyncStorage.forgetRowID(table.name, rowID, in: db)
    }

    private func parentExists(_ foreignKey: SyncedTable.ForeignKey, _ value: DatabaseValue) throws -> Bool {
        let sql = "SELECT 1 FROM \(SQLIdentifier.quote(foreignKey.parentTable)) WHERE \(SQLIdentifier.quote(foreignKey.parentColumn)) = ?"
        return try db.fetchValue(Int64.self, sql: sql, arguments: [value]) != nil
    }

    /// The synced rows whose foreign key points at the row with `key`: they may appear with it.
    private func children(of table: SyncedTable, key: DatabaseValue) throws -> [(table: SyncedTable, key: DatabaseValue)] {
        var children: [(table: SyncedTable, key: DatabaseValue)] = []
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
