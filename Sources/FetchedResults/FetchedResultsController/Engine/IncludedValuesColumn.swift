import SQLiteStoreCore

/// A column a controller's index reads with each row beside its own values: what one
/// included relationship (`StoreRequest.including`) shows of the row, as one value, so that
/// the row's fingerprint changes exactly when its included objects or its included count or
/// aggregate change. Changed rows are then told from unchanged ones by fingerprint, on every
/// path (rows re-read by rowid, results read again, commits of other processes).
///
/// The value is a correlated subquery on the request's table: for a count or an aggregate
/// the subquery that computes it; for a parent, its columns quoted (`quote()` keeps types
/// and NULLs apart) and joined; for children or targets, theirs, joined in the order the
/// included collection shows them (their rowids).
enum IncludedValuesColumn {
    /// The column of `inclusion` for rows of `table`, with the values its placeholders bind;
    /// reads the related tables' columns in `db`.
    static func expression(of inclusion: IncludedRelationship, from table: String, _ db: Database) throws -> SQLExpression {
        if let computed = inclusion.computed { return computed }
        let outer = SQLIdentifier.quote(table)
        // Named after the outer table, so never a table of the schema's own naming.
        let related = SQLIdentifier.quote(table + " included")
        if let pairs = inclusion.pairs { return try targets(pairs, from: outer, as: related, db) }
        switch inclusion.kind {
        case .toOne(let link):
            let values = try quotedRow(link.parentTable, as: related, db)
            let sql =
                "(SELECT \(values) FROM \(SQLIdentifier.quote(link.parentTable)) AS \(related) "
                + "WHERE \(related).\(SQLIdentifier.quote(link.referencedKey)) = \(outer).\(SQLIdentifier.quote(link.foreignKey)))"
            return SQLExpression(sql: sql)
        case .toMany(let link):
            let values = try quotedRow(link.childTable, as: related, db)
            let rowID = try db.rowIDName(of: link.childTable)
            return joined(
                "SELECT \(values) AS value FROM \(SQLIdentifier.quote(link.childTable)) AS \(related) "
                    + "WHERE \(related).\(SQLIdentifier.quote(link.foreignKey)) = \(outer).\(SQLIdentifier.quote(link.referencedKey)) "
                    + "ORDER BY \(related).\(rowID)")
        case .manyToMany, .tables:
            // Many-to-many collections have `pairs`, counts and aggregates `computed`.
            return SQLExpression(sql: "NULL")
        }
    }

    /// The targets paired with the outer row that meet the filter, if any (read in a
    /// subquery of its own, where its column names name the target's), joined in rowid order:
    /// another order shows the same values in another order only when one of them changed.
    private static func targets(
        _ pairs: (source: ToOneLink, target: ToOneLink, filter: SQLExpression?), from outer: String, as related: String,
        _ db: Database
    ) throws -> SQLExpression {
        let (source, target) = (pairs.source, pairs.target)
        let pair = SQLIdentifier.quote(source.childTable + " included pair")
        let rowID = SQLIdentifier.quote("included rowid")
        let targetTable = SQLIdentifier.quote(target.parentTable)
        let filter = pairs.filter.map { " WHERE \($0.sql)" } ?? ""
        let values = try quotedRow(target.parentTable, as: related, rowID: rowID, db)
        let sql =
            "SELECT \(values) AS value FROM \(SQLIdentifier.quote(source.childTable)) AS \(pair) "
            + "JOIN (SELECT \(try db.rowIDName(of: target.parentTable)) AS \(rowID), * FROM \(targetTable)\(filter)) AS \(related) "
            + "ON \(related).\(SQLIdentifier.quote(target.referencedKey)) = \(pair).\(SQLIdentifier.quote(target.foreignKey)) "
            + "WHERE \(pair).\(SQLIdentifier.quote(source.foreignKey)) = \(outer).\(SQLIdentifier.quote(source.referencedKey)) "
            + "ORDER BY \(related).\(rowID)"
        return SQLExpression(sql: "(SELECT group_concat(value, x'1e') FROM (\(sql)))", arguments: pairs.filter?.arguments ?? [])
    }

    /// `query`'s `value`s joined in its order, as one value.
    private static func joined(_ query: String) -> SQLExpression {
        SQLExpression(sql: "(SELECT group_concat(value, x'1e') FROM (\(query)))")
    }

    /// The rowid (read as `rowID`, by default the table's) and every column of `table`'s row
    /// named `alias`, each quoted, joined.
    private static func quotedRow(_ table: String, as alias: String, rowID: String? = nil, _ db: Database) throws -> String {
        let names = try db.fetchRows(sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table])
            .compactMap { row -> String? in
                guard case .text(let name) = row[0] else { return nil }
                return SQLIdentifier.quote(name)
            }
        let rowID = try rowID ?? db.rowIDName(of: table)
        return ([rowID] + names).map { "quote(\(alias).\($0))" }.joined(separator: " || ',' || ")
    }
}
