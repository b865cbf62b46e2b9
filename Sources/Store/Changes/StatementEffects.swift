import CSQLite

/// What executing a statement does beyond changing rows, learned from SQLite's authorizer
/// each time the statement is prepared on the writer connection (SQLite prepares a statement
/// again inside `sqlite3_step` after a schema change, and the answers may differ).
struct StatementEffects {
    enum SavepointOperation: Equatable {
        case begin(String)
        case release(String)
        case rollback(String)
    }

    /// A `SAVEPOINT`, `RELEASE` or `ROLLBACK TO` statement.
    var savepoint: SavepointOperation?
    /// A `BEGIN`, `COMMIT`, `END` or `ROLLBACK` (not `ROLLBACK TO`) statement, in any spelling.
    var controlsTransaction = false
    /// Whether the statement changes the schema (CREATE, DROP, ALTER) or rewrites the file (VACUUM).
    var changesSchema = false
    /// The (ASCII-folded, `sqliteIdentifierFolded`) tables the statement, its triggers and foreign key actions write to.
    var writtenTables: Set<String> = []
    /// The (ASCII-folded) columns the statement updates, by (ASCII-folded) table; `rowid` stands for
    /// any name of the rowid (SQLite's authorizer says `ROWID`).
    var updatedColumns: [String: Set<String>] = [:]
    /// Whether the statement may delete rows through REPLACE conflict resolution, which
    /// SQLite's update hook does not report (only matters without the pre-update hook).
    var mayReplace = false
    /// Whether the statement's text names the `FAIL` conflict resolution (`OR FAIL`); the
    /// schema's clauses and triggers are `SchemaFacts.mayFail`.
    var mayFail = false

    /// Records one authorizer callback. SQLite's internal tables (`sqlite_schema`,
    /// `sqlite_stat1`, …) are no user's data: writing or creating them is no effect.
    mutating func authorize(action: Int32, _ first: String?, _ second: String?) {
        switch action {
        case SQLITE_TRANSACTION:
            controlsTransaction = true
        case SQLITE_SAVEPOINT:
            guard let operation = first, let name = second else { return }
            switch operation.uppercased() {
            case "BEGIN": savepoint = .begin(name)
            case "RELEASE": savepoint = .release(name)
            case "ROLLBACK": savepoint = .rollback(name)
            default: break
            }
        case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE:
            guard let table = first, !Self.isInternal(table) else { return }
            let folded = table.sqliteIdentifierFolded
            writtenTables.insert(folded)
            if action == SQLITE_UPDATE, let column = second { updatedColumns[folded, default: []].insert(column.sqliteIdentifierFolded) }
        case SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
            SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
            SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE:
            if let name = first, !Self.isInternal(name) { changesSchema = true }
        case SQLITE_ALTER_TABLE:
            if let table = second, !Self.isInternal(table) { changesSchema = true }
        default:
            break
        }
    }

    /// Effects that the authorizer does not report, read from the SQL text.
    mutating func inspect(sql: String) {
        let text = sql.uppercased()
        if text.drop(while: \.isWhitespace).hasPrefix("VACUUM") { changesSchema = true }
        if text.contains("REPLACE") { mayReplace = true }
        if text.contains("FAIL") { mayFail = true }
    }

    /// Whether `name` is one of SQLite's own tables or indexes or a reserved bookkeeping table
    /// (``ReservedTableNames``): never published.
    static func isInternal(_ name: String) -> Bool { ReservedTableNames.contains(name) }
}
