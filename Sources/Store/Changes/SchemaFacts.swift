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
    /// Whether a constraint or trigger of the schema may name the `REPLACE` conflict resolution,
    /// whose deletions the update hook does not report.
    var mayReplace = false
    /// Whether a `BEFORE` or `INSTEAD OF` trigger may write rows: only such a trigger can
    /// change rows before a statement changes its first own row.
    var hasWritingBeforeTriggers = false
    /// The (lowercased) `INTEGER PRIMARY KEY` column of each rowid table that has one: updating
    /// it changes the rowid, which the update hook reports under the new rowid only.
    var rowIDAliases: [String: String] = [:]

    /// Reads the facts on `db` without going through statement capture.
    static func load(from db: Database) throws -> SchemaFacts {
        var facts = SchemaFacts()
        for row in try db.uncapturedRows(sql: "SELECT name FROM pragma_table_list WHERE schema = 'main' AND wr = 1") {
            if let name = row[0] { facts.withoutRowIDTables.insert(name.lowercased()) }
        }
        facts.mayFail = try schemaMentions("fail", in: db)
        facts.mayReplace = try schemaMentions("replace", in: db)
        let before = """
            SELECT sql FROM main.sqlite_schema WHERE type = 'trigger' AND (sql LIKE '%before%' OR sql LIKE '%instead%')
            UNION ALL
            SELECT sql FROM temp.sqlite_schema WHERE type = 'trigger' AND (sql LIKE '%before%' OR sql LIKE '%instead%')
            """
        facts.hasWritingBeforeTriggers = try db.uncapturedRows(sql: before).contains { row in
            // The body follows the first BEGIN; a write in it can precede the statement's own rows.
            let text = (row[0] ?? "").uppercased()
            let body = text.range(of: "BEGIN").map { text[$0.upperBound...] } ?? Substring(text)
            return ["INSERT", "UPDATE", "DELETE", "REPLACE"].contains { body.contains($0) }
        }
        let aliases = """
            SELECT m.name, p.name FROM main.sqlite_schema AS m, pragma_table_info(m.name) AS p
            WHERE m.type = 'table' AND p.pk = 1 AND upper(p.type) = 'INTEGER'
              AND (SELECT count(*) FROM pragma_table_info(m.name) WHERE pk > 0) = 1
            """
        for row in try db.uncapturedRows(sql: aliases) {
            if let table = row[0], let column = row[1] { facts.rowIDAliases[table.lowercased()] = column.lowercased() }
        }
        return facts
    }

    /// Whether the SQL of some schema object (main or temp) contains `word`, in any case.
    private static func schemaMentions(_ word: String, in db: Database) throws -> Bool {
        let sql = """
            SELECT EXISTS (SELECT 1 FROM main.sqlite_schema WHERE sql LIKE ?1)
                OR EXISTS (SELECT 1 FROM temp.sqlite_schema WHERE sql LIKE ?1)
            """
        return try db.uncapturedRows(sql: sql, arguments: [.text("%\(word)%")]).first?[0] != "0"
    }
}
