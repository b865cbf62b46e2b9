import CSQLite

/// What change capture derives from the schema. Loaded again whenever the schema may differ
/// from the last load: after a schema change, a rollback, a `ROLLBACK TO`, and a commit by
/// another connection or process, so that it follows transactions and savepoints.
struct SchemaFacts {
    /// The (lowercased) `WITHOUT ROWID` tables of the main database, whose rows hooks cannot name.
    var withoutRowIDTables: Set<String> = []
    /// Whether a constraint or trigger of the schema (main or temp) may name the `FAIL` conflict
    /// resolution (`ON CONFLICT FAIL`, `RAISE(FAIL, …)`). Without it, and without `OR FAIL` in a
    /// statement, a failed statement that leaves the transaction open was undone (`ABORT`).
    var mayFail = false

    /// Reads the facts on `db` without going through statement capture.
    static func load(from db: Database) throws -> SchemaFacts {
        var facts = SchemaFacts()
        for row in try db.uncapturedRows(sql: "SELECT name FROM pragma_table_list WHERE schema = 'main' AND wr = 1") {
            if let name = row[0] { facts.withoutRowIDTables.insert(name.lowercased()) }
        }
        let failing = """
            SELECT EXISTS (SELECT 1 FROM main.sqlite_schema WHERE sql LIKE '%fail%')
                OR EXISTS (SELECT 1 FROM temp.sqlite_schema WHERE sql LIKE '%fail%')
            """
        facts.mayFail = try db.uncapturedRows(sql: failing).first?[0] != "0"
        return facts
    }
}
