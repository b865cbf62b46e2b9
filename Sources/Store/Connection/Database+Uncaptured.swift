import CSQLite

extension Database {
    /// The rows of `sql`, as text, run with SQLite's C API alone: no statement cache, no change
    /// capture, no checks. For the store's own bookkeeping queries that run while capture is in
    /// the middle of a statement (schema facts, looking up whether a row survived).
    func uncapturedRows(sql: String, arguments: [DatabaseValue] = []) throws -> [[String?]] {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), sql: sql)
        defer { sqlite3_finalize(statement) }
        for (index, argument) in arguments.enumerated() {
            let position = Int32(index + 1)
            let code =
                switch argument {
                case .integer(let number): sqlite3_bind_int64(statement, position, number)
                case .text(let text): sqlite3_bind_text(statement, position, text, -1, transientDestructor)
                default: sqlite3_bind_null(statement, position)
                }
            try check(code, sql: sql)
        }
        var rows: [[String?]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw StoreError(resultCode: code, connection: handle, sql: sql) }
            rows.append(
                (0..<sqlite3_column_count(statement)).map { column in
                    sqlite3_column_text(statement, column).map { String(cString: $0) }
                })
        }
    }
}
