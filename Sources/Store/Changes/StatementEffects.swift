import CSQLite

/// What executing a statement does beyond changing rows, learned from SQLite's authorizer
/// when the statement is prepared on the writer connection.
struct StatementEffects {
    enum SavepointOperation: Equatable {
        case begin(String)
        case release(String)
        case rollback(String)
    }

    /// A `SAVEPOINT`, `RELEASE` or `ROLLBACK TO` statement.
    var savepoint: SavepointOperation?
    /// Whether the statement changes the schema (CREATE, DROP, ALTER) or rewrites the file (VACUUM).
    var changesSchema = false
    /// The (lowercased) tables the statement, its triggers and foreign key actions write to.
    var writtenTables: Set<String> = []
    /// Whether the statement may delete rows through REPLACE conflict resolution, which
    /// SQLite's update hook does not report (only matters without the pre-update hook).
    var mayReplace = false

    /// Records one authorizer callback.
    mutating func authorize(action: Int32, _ first: String?, _ second: String?) {
        switch action {
        case SQLITE_SAVEPOINT:
            guard let operation = first, let name = second else { return }
            switch operation.uppercased() {
            case "BEGIN": savepoint = .begin(name)
            case "RELEASE": savepoint = .release(name)
            case "ROLLBACK": savepoint = .rollback(name)
            default: break
            }
        case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE:
            if let table = first { writtenTables.insert(table.lowercased()) }
        case SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
             SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
             SQLITE_ALTER_TABLE, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE:
            changesSchema = true
        default:
            break
        }
    }

    /// Effects that the authorizer does not report, read from the SQL text.
    mutating func inspect(sql: String) {
        let text = sql.uppercased()
        if text.drop(while: \.isWhitespace).hasPrefix("VACUUM") { changesSchema = true }
        if text.contains("REPLACE") { mayReplace = true }
    }
}
