extension Database {
    /// The identity across the library of the model of type `M` whose primary key is `id`: its
    /// row in its table, or `nil` when no row has that key. A model keyed by its rowid has it
    /// without a read (``StoreModel/objectID``); this serves other keys, such as the `UUID`s
    /// of synced tables, for the APIs that take an ``ObjectID`` (a watcher, a view model).
    ///
    /// - Throws: `StoreError.misuse` for a `WITHOUT ROWID` table, whose rows have no rowid;
    ///   `StoreError` when SQLite fails.
    public func objectID<M: StoreModel>(of type: M.Type, id: M.ID.Value) throws -> ObjectID? {
        try requireRowIDTable(M.tableName, of: M.self)
        let sql = "SELECT rowid FROM \(SQLIdentifier.quote(M.tableName)) WHERE \(SQLIdentifier.quote(M.primaryKeyColumn)) = ?"
        return try fetchValue(Int64.self, sql: sql, arguments: [id]).map { ObjectID(table: M.tableName, rowID: $0) }
    }
}
