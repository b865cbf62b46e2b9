extension Database {
    /// `request` with each ordering through a link that names no collation given its parent
    /// column's declared one (when not BINARY): a scalar subquery carries no collation, so SQL
    /// would order it by bytes, unlike a join on the parent's column. The store's fetches and
    /// the fetched-results controller both order related columns this way.
    package func namingParentCollations<M>(_ request: StoreRequest<M>) -> StoreRequest<M> {
        var resolved = request
        resolved.orderings = request.orderings.map { ordering in
            guard ordering.collation == nil, let table = ordering.column.relatedTable,
                let declared = declaredCollation(table: table, column: ordering.column.name),
                declared.uppercased() != "BINARY"
            else { return ordering }
            return Ordering(column: ordering.column, isAscending: ordering.isAscending, collation: Collation(named: declared))
        }
        return resolved
    }

    /// `request`'s `SELECT` (`StoreRequest.selectSQL(columns:rowID:)`), related columns
    /// ordered with their parent column's collation; throws for a `WITHOUT ROWID` table (see
    /// `requireRowIDTable`), as every model fetch builds its SQL here.
    func selectSQL<M>(_ request: StoreRequest<M>, columns: String? = nil, rowID: String = "rowid") throws -> (
        sql: String, arguments: [DatabaseValue]
    ) {
        try requireRowIDTable(request.tableName, of: M.self)
        return try namingParentCollations(request).selectSQL(columns: columns, rowID: rowID)
    }
}
