extension Database {
    /// Whether the children of changed parent rows can be found by the parents' rowids, which
    /// is all a transaction's changes name: `link`'s referenced key is the parent's rowid (its
    /// `INTEGER PRIMARY KEY`, in a rowid table, not declared `DESC`), and the child's foreign
    /// key has a numeric affinity, so that `foreignKey IN (rowids)` selects exactly the children
    /// whose related row (``ToOneLink/valueSQL(of:)``) is one of those parents.
    ///
    /// `false` when either table or column is missing.
    package func findsChildrenByParentRowID(_ link: ToOneLink) throws -> Bool {
        let parentColumns = try uncapturedRows(
            sql: "SELECT name, upper(type) FROM pragma_table_xinfo(?) WHERE pk > 0", arguments: [.text(link.parentTable)])
        guard parentColumns.count == 1, let key = parentColumns.first,
            key[0]?.matchesSQLiteIdentifier(link.referencedKey) == true, key[1] == "INTEGER"
        else { return false }
        // A `WITHOUT ROWID` table, or an `INTEGER PRIMARY KEY DESC`, keeps its key in an index of origin `pk`.
        let keyIndexes = try uncapturedRows(
            sql: "SELECT 1 FROM pragma_index_list(?) WHERE origin = 'pk'", arguments: [.text(link.parentTable)])
        guard keyIndexes.isEmpty else { return false }
        let foreignKey = try uncapturedRows(
            sql: "SELECT upper(type) FROM pragma_table_xinfo(?) WHERE name = ? COLLATE NOCASE",
            arguments: [.text(link.childTable), .text(link.foreignKey)])
        guard let type = foreignKey.first?[0] else { return false }
        return Self.hasNumericAffinity(declaredType: type)
    }

    /// Whether a column of `declaredType` (upper case) has INTEGER, REAL or NUMERIC affinity,
    /// by SQLite's rules (section 3.1 of "Datatypes In SQLite").
    private static func hasNumericAffinity(declaredType: String) -> Bool {
        if declaredType.contains("INT") { return true }
        if ["CHAR", "CLOB", "TEXT", "BLOB"].contains(where: declaredType.contains) { return false }
        return !declaredType.isEmpty
    }
}
