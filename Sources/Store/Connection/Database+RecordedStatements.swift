import CSQLite

extension Database {
    /// Runs `body` and returns its result with the SQL of each statement it ran on this
    /// connection, in order: how a test (the library's, or yours) proves that a fetch runs a
    /// fixed number of queries, never one per row.
    ///
    /// ```swift
    /// let (tagged, statements) = try store.read { db in
    ///     try db.recordingStatements { try db.fetch(StoreRequest<Item>(), including: Item.tags) }
    /// }
    /// ```
    ///
    /// Each statement is its SQL as prepared, with `?` where values are bound (never the
    /// values). Not recorded: the statements that triggers run, and the store's own
    /// bookkeeping (the schema version, the `WITHOUT ROWID` check a model fetch asks first,
    /// and the rowid's name, read once per table and connection). Calls nest: an inner call's
    /// statements are the outer call's too.
    public func recordingStatements<T>(_ body: () throws -> T) rethrows -> (result: T, statements: [String]) {
        let recorder = StatementRecorder(outer: statementRecorder)
        statementRecorder = recorder
        trace(into: recorder)
        defer {
            statementRecorder = recorder.outer
            trace(into: recorder.outer)
        }
        return (try body(), recorder.statements)
    }

    /// Points SQLite's statement trace at `recorder`, or turns it off.
    private func trace(into recorder: StatementRecorder?) {
        guard let recorder else {
            sqlite3_trace_v2(handle, 0, nil, nil)
            return
        }
        // `statementRecorder` keeps the recorder alive while it is traced into.
        sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_STMT),
            { _, context, _, text in
                guard let context, let text else { return 0 }
                let sql = String(cString: text.assumingMemoryBound(to: CChar.self))
                Unmanaged<StatementRecorder>.fromOpaque(context).takeUnretainedValue().record(sql)
                return 0
            }, Unmanaged.passUnretained(recorder).toOpaque())
    }
}

/// The statements recorded by one `recordingStatements` call, which also hands them to the
/// call it is nested in.
final class StatementRecorder {
    private(set) var statements: [String] = []
    let outer: StatementRecorder?
    /// What the store asks on its own before model fetches.
    private static let bookkeeping: Set<String> = [
        RowIDNameCache.schemaVersionSQL, Database.withoutRowIDSQL, Database.rowIDNameSQL,
    ]

    init(outer: StatementRecorder?) { self.outer = outer }

    /// Records `sql` unless a trigger runs it (SQLite traces those as `-- TRIGGER name`) or
    /// it is bookkeeping.
    func record(_ sql: String) {
        guard !sql.hasPrefix("--"), !Self.bookkeeping.contains(sql) else { return }
        statements.append(sql)
        outer?.record(sql)
    }
}
