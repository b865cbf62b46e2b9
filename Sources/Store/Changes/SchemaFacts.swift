import CSQLite

/// What change capture derives from the schema. Loaded again whenever the schema may differ
/// from the last load: after a schema change, a rollback, a `ROLLBACK TO`, and a commit by
/// another connection or process, so that it follows transactions and savepoints.
struct SchemaFacts {
    /// The (ASCII-folded) `WITHOUT ROWID` tables of the main database, whose rows hooks cannot name.
    var withoutRowIDTables: Set<String> = []
    /// The (ASCII-folded) tables whose definition, or one of whose triggers (main or temp), may
    /// name the `FAIL` conflict resolution (`ON CONFLICT FAIL`, `OR FAIL`, `RAISE(FAIL, …)`).
    var tablesThatMayFail: Set<String> = []
    /// Whether a constraint or trigger of the schema may name the `REPLACE` conflict resolution,
    /// whose deletions the update hook does not report.
    var mayReplace = false
    /// The (ASCII-folded) tables whose definition may name `REPLACE` (`ON CONFLICT REPLACE`): a
    /// statement that writes one may delete rows of its own before changing them.
    var tablesReplacingOnConflict: Set<String> = []
    /// The (ASCII-folded) tables and views with a `BEFORE` or `INSTEAD OF` trigger that may write
    /// rows: only such a trigger can change rows before a statement changes its first own row.
    var tablesWithWritingBeforeTriggers: Set<String> = []
    /// The (ASCII-folded) `INTEGER PRIMARY KEY` column of each rowid table that has one: updating
    /// it changes the rowid, which the update hook reports under the new rowid only.
    var rowIDAliases: [String: String] = [:]

    /// Reads the facts on `db` without going through statement capture.
    static func load(from db: Database) throws -> SchemaFacts {
        var facts = SchemaFacts()
        for row in try db.uncapturedRows(sql: "SELECT name FROM pragma_table_list WHERE schema = 'main' AND wr = 1") {
            if let name = row[0] { facts.withoutRowIDTables.insert(name.sqliteIdentifierFolded) }
        }
        facts.tablesThatMayFail = try tables(mentioning: "fail", in: ["table", "trigger"], of: db)
        facts.tablesReplacingOnConflict = try tables(mentioning: "replace", in: ["table"], of: db)
        facts.mayReplace = try !tables(mentioning: "replace", in: ["table", "trigger"], of: db).isEmpty
        let before = """
            SELECT tbl_name, sql FROM main.sqlite_schema WHERE type = 'trigger' AND (sql LIKE '%before%' OR sql LIKE '%instead%')
            UNION ALL
            SELECT tbl_name, sql FROM temp.sqlite_schema WHERE type = 'trigger' AND (sql LIKE '%before%' OR sql LIKE '%instead%')
            """
        for row in try db.uncapturedRows(sql: before) {
            // The body follows the first BEGIN; a write in it can precede the statement's own rows.
            let text = (row[1] ?? "").uppercased()
            let body = text.range(of: "BEGIN").map { text[$0.upperBound...] } ?? Substring(text)
            if let table = row[0], ["INSERT", "UPDATE", "DELETE", "REPLACE"].contains(where: body.contains) {
                facts.tablesWithWritingBeforeTriggers.insert(table.sqliteIdentifierFolded)
            }
        }
        let aliases = """
            SELECT m.name, p.name FROM main.sqlite_schema AS m, pragma_table_info(m.name) AS p
            WHERE m.type = 'table' AND p.pk = 1 AND upper(p.type) = 'INTEGER'
              AND (SELECT count(*) FROM pragma_table_info(m.name) WHERE pk > 0) = 1
            """
        for row in try db.uncapturedRows(sql: aliases) {
            if let table = row[0], let column = row[1] { facts.rowIDAliases[table.sqliteIdentifierFolded] = column.sqliteIdentifierFolded }
        }
        return facts
    }

    /// Whether a statement that failed without ending the transaction may have failed under `FAIL`,
    /// keeping the rows it changed before the failure; otherwise SQLite undid it (`ABORT`).
    ///
    /// Only an INSERT, UPDATE or DELETE runs under a conflict resolution: a schema statement that
    /// fails is always undone. `FAIL` comes from the statement's own `OR FAIL`, or from the
    /// definition or a trigger of a table it writes (its triggers' and foreign key actions'
    /// tables included, as the authorizer names them).
    func mayHaveFailedUnderFail(_ effects: StatementEffects) -> Bool {
        !effects.changesSchema && (effects.mayFail || !effects.writtenTables.isDisjoint(with: tablesThatMayFail))
    }

    /// Whether the statement's own rows may include rows deleted by `REPLACE` (before the row
    /// that replaces them): its own `OR REPLACE`, or `ON CONFLICT REPLACE` in a table it writes.
    /// A trigger's `REPLACE` deletes a trigger's rows, not the statement's own.
    func replacesOwnRows(_ effects: StatementEffects) -> Bool {
        effects.mayReplace || !effects.writtenTables.isDisjoint(with: tablesReplacingOnConflict)
    }

    /// Whether the statement may change rows before its first own row: rows deleted by `REPLACE`,
    /// or a writing `BEFORE` or `INSTEAD OF` trigger of a table it writes.
    func mayChangeRowsBeforeItsOwn(_ effects: StatementEffects) -> Bool {
        replacesOwnRows(effects) || !effects.writtenTables.isDisjoint(with: tablesWithWritingBeforeTriggers)
    }

    /// The (ASCII-folded) tables whose definition (`table`), or one of whose triggers (`trigger`), in
    /// main or temp, contains `word` in any case.
    private static func tables(mentioning word: String, in types: [String], of db: Database) throws -> Set<String> {
        let typeList = types.map { "'\($0)'" }.joined(separator: ", ")
        let sql = """
            SELECT tbl_name FROM main.sqlite_schema WHERE type IN (\(typeList)) AND sql LIKE ?1
            UNION ALL
            SELECT tbl_name FROM temp.sqlite_schema WHERE type IN (\(typeList)) AND sql LIKE ?1
            """
        return Set(try db.uncapturedRows(sql: sql, arguments: [.text("%\(word)%")]).compactMap { $0[0]?.sqliteIdentifierFolded })
    }
}
