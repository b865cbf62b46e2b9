import CSQLite

@testable import SQLiteStoreCore

/// Counts the statements a connection runs (`sqlite3_trace_v2`, `SQLITE_TRACE_STMT`), not
/// counting the statements of triggers nor the store's bookkeeping (the schema version and the
/// `WITHOUT ROWID` check that every model fetch asks first, see `Database.requireRowIDTable`):
/// how a test proves a fetch runs a constant number of queries, never one per row.
final class StatementCounter {
    private(set) var statements: [String] = []
    private static let bookkeeping: Set<String> = [RowIDNameCache.schemaVersionSQL, Database.withoutRowIDSQL]

    /// Runs `body` on `db` and returns its result with the SQL of each statement it started.
    static func counting<T>(_ db: Database, _ body: () throws -> T) rethrows -> (T, [String]) {
        let counter = StatementCounter()
        let context = Unmanaged.passUnretained(counter).toOpaque()
        sqlite3_trace_v2(
            db.handle, UInt32(SQLITE_TRACE_STMT),
            { _, context, _, text in
                guard let context, let text else { return 0 }
                let sql = String(cString: text.assumingMemoryBound(to: CChar.self))
                if !sql.hasPrefix("--"), !StatementCounter.bookkeeping.contains(sql) {  // "--" starts a trigger's statement
                    Unmanaged<StatementCounter>.fromOpaque(context).takeUnretainedValue().statements.append(sql)
                }
                return 0
            }, context)
        defer { sqlite3_trace_v2(db.handle, 0, nil, nil) }
        return (try withExtendedLifetime(counter) { try body() }, counter.statements)
    }
}
