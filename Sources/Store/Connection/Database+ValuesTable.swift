import CSQLite

extension Database {
    /// Runs `body` while SQL on this connection can read `values` as the table `name`: an
    /// eponymous virtual table of the `main` schema, read-only, removed when `body` returns.
    /// Statements that read it are prepared in `body` and not cached: a cached one would keep
    /// the values alive after.
    ///
    /// - Throws: `StoreError` when SQLite refuses the table, and what `body` throws.
    package func withValuesTable<Answer>(_ values: ValuesTable, named name: String, _ body: () throws -> Answer) throws -> Answer {
        let source = ValuesTableSource(values)
        // SQLite releases the source once the table is gone, and at once when the registration fails.
        let code = sqlite3_create_module_v2(
            handle, name, valuesModule, Unmanaged.passRetained(source).toOpaque(),
            { context in if let context { Unmanaged<ValuesTableSource>.fromOpaque(context).release() } })
        try check(code, sql: nil)
        defer { sqlite3_create_module_v2(handle, name, nil, nil, nil) }
        return try body()
    }
}

/// The module of every values table, made once and never freed: SQLite may disconnect a
/// table after its registration is gone (it defers disconnecting tables that statements used),
/// through this module. Only read after it is made (a global's lazy initialization is atomic).
nonisolated(unsafe) private let valuesModule: UnsafeMutablePointer<sqlite3_module> = {
    let module = UnsafeMutablePointer<sqlite3_module>.allocate(capacity: 1)
    module.initialize(to: ValuesTableSource.makeModule())
    return module
}()

/// The values of a ``ValuesTable``, alive for as long as SQLite holds their registration.
private final class ValuesTableSource {
    let values: ValuesTable

    init(_ values: ValuesTable) { self.values = values }

    /// The source behind a table or a cursor's `values` pointer.
    static func from(_ pointer: UnsafeRawPointer?) -> ValuesTableSource? {
        pointer.map { Unmanaged<ValuesTableSource>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The table's declaration: its columns, quoted.
    var declaration: String {
        "CREATE TABLE x(\(values.columnNames.map(SQLIdentifier.quote).joined(separator: ", ")))"
    }

    /// An eponymous-only module (no `xCreate`) that scans the rows in order, taking no
    /// constraint and no order: SQLite checks and sorts what it reads.
    static func makeModule() -> sqlite3_module {
        var module = sqlite3_module()
        module.iVersion = 1
        module.xConnect = { db, context, _, _, table, _ in
            guard let source = ValuesTableSource.from(context), let table else { return SQLITE_ERROR }
            let code = sqlite3_declare_vtab(db, source.declaration)
            guard code == SQLITE_OK else { return code }
            let values = UnsafeMutablePointer<csqlite_values_vtab>.allocate(capacity: 1)
            values.initialize(to: csqlite_values_vtab(base: sqlite3_vtab(), values: context))
            table.pointee = UnsafeMutableRawPointer(values).assumingMemoryBound(to: sqlite3_vtab.self)
            return SQLITE_OK
        }
        module.xDisconnect = { table in
            table.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: csqlite_values_vtab.self).deallocate() }
            return SQLITE_OK
        }
        module.xDestroy = module.xDisconnect
        module.xBestIndex = { table, info in
            guard let table, let info, let source = ValuesTableSource.from(valuesTable(table).pointee.values) else { return SQLITE_ERROR }
            let rowCount = source.values.rowCount
            info.pointee.estimatedRows = Int64(rowCount)
            info.pointee.estimatedCost = Double(max(rowCount, 1))
            return SQLITE_OK
        }
        module.xOpen = { table, cursor in
            guard let table, let cursor else { return SQLITE_ERROR }
            let values = UnsafeMutablePointer<csqlite_values_cursor>.allocate(capacity: 1)
            let owner = valuesTable(table).pointee.values
            let count = Int64(ValuesTableSource.from(owner)?.values.rowCount ?? 0)
            values.initialize(to: csqlite_values_cursor(base: sqlite3_vtab_cursor(), values: owner, row: 0, count: count))
            cursor.pointee = UnsafeMutableRawPointer(values).assumingMemoryBound(to: sqlite3_vtab_cursor.self)
            return SQLITE_OK
        }
        module.xClose = { cursor in
            cursor.map { valuesCursor($0).deallocate() }
            return SQLITE_OK
        }
        module.xFilter = { cursor, _, _, _, _ in
            cursor.map { valuesCursor($0).pointee.row = 0 }
            return SQLITE_OK
        }
        module.xNext = { cursor in
            cursor.map { valuesCursor($0).pointee.row += 1 }
            return SQLITE_OK
        }
        module.xEof = { cursor in
            guard let cursor else { return 1 }
            return valuesCursor(cursor).pointee.row < valuesCursor(cursor).pointee.count ? 0 : 1
        }
        module.xColumn = { cursor, context, column in
            guard let cursor, let owner = valuesCursor(cursor).pointee.values else { return SQLITE_ERROR }
            let row = Int(valuesCursor(cursor).pointee.row)
            // Read in place, the source neither retained nor its arrays copied: this runs for
            // every value of every row a statement reads.
            return Unmanaged<ValuesTableSource>.fromOpaque(owner)._withUnsafeGuaranteedRef { source in
                guard source.values.columns.indices.contains(Int(column)) else { return SQLITE_RANGE }
                return setResult(context, source.values.columns[Int(column)][row])
            }
        }
        module.xRowid = { cursor, rowID in
            guard let cursor, let rowID else { return SQLITE_ERROR }
            rowID.pointee = valuesCursor(cursor).pointee.row
            return SQLITE_OK
        }
        return module
    }
}

private func valuesTable(_ table: UnsafeMutablePointer<sqlite3_vtab>) -> UnsafeMutablePointer<csqlite_values_vtab> {
    UnsafeMutableRawPointer(table).assumingMemoryBound(to: csqlite_values_vtab.self)
}

private func valuesCursor(_ cursor: UnsafeMutablePointer<sqlite3_vtab_cursor>) -> UnsafeMutablePointer<csqlite_values_cursor> {
    UnsafeMutableRawPointer(cursor).assumingMemoryBound(to: csqlite_values_cursor.self)
}

/// Makes `value` the result of a column; NaN is an error, as when binding it.
private func setResult(_ context: OpaquePointer?, _ value: DatabaseValue) -> Int32 {
    let code = value.withSQLiteArgument { argument in
        switch argument {
        case .null: sqlite3_result_null(context)
        case .integer(let number): sqlite3_result_int64(context, number)
        case .real(let number): sqlite3_result_double(context, number)
        case .text(let text, let count): sqlite3_result_text64(context, text, count, transientDestructor, UInt8(SQLITE_UTF8))
        case .blob(let bytes, let count): sqlite3_result_blob64(context, bytes, count, transientDestructor)
        case .emptyBlob: sqlite3_result_zeroblob(context, 0)
        }
        return SQLITE_OK
    }
    guard let code else {
        sqlite3_result_error(context, DatabaseValue.notANumberMessage, -1)
        return SQLITE_ERROR
    }
    return code
}
