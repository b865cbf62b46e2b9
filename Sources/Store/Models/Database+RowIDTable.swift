extension Database {
    /// Throws a `StoreError` (`SQLITE_MISMATCH`) when `table`, the table of `M`, is `WITHOUT ROWID`:
    /// the fetched-results controller and watchers identify rows by rowid, so a model needs a
    /// rowid table. Every model fetch and write asks first, so such a model fails at its first use.
    ///
    /// The answer is cached per connection and table while the schema stays the same. In the
    /// store's write transactions on the writer, the schema is identified by change capture's
    /// facts, which follow every schema change of the transaction and are reloaded when it begins
    /// after another connection's commit: a write checks no more than two integers. Elsewhere it is
    /// identified by `PRAGMA schema_version`, read once per use.
    func requireRowIDTable<M: StoreModel>(_ table: String, of type: M.Type) throws {
        try checkAccessible(sql: nil)  // before the C calls below touch the connection
        if let capture = changeCapture, storeOwnsTransaction {
            let generation = try capture.currentFactsGeneration()
            guard !rowIDTablesByCapture.isKnownRowIDTable(table, stamp: generation) else { return }
            try refuseWithoutRowID(table, of: M.self)
            rowIDTablesByCapture.remember(table)
        } else {
            let version = try rowIDNames.schemaVersion(on: handle)
            guard !rowIDTablesByVersion.isKnownRowIDTable(table, stamp: version) else { return }
            try refuseWithoutRowID(table, of: M.self)
            rowIDTablesByVersion.remember(table)
        }
    }

    /// The query that finds whether a table is `WITHOUT ROWID`.
    static let withoutRowIDSQL = "SELECT 1 FROM pragma_table_list WHERE name = ? COLLATE NOCASE AND wr = 1"

    /// Whether `table` is `WITHOUT ROWID` (its changes are published as whole-table changes).
    package func isWithoutRowID(_ table: String) throws -> Bool {
        try !uncapturedRows(sql: Self.withoutRowIDSQL, arguments: [.text(table)]).isEmpty
    }

    private func refuseWithoutRowID<M: StoreModel>(_ table: String, of type: M.Type) throws {
        guard try isWithoutRowID(table) else { return }
        throw StoreError.mismatch(
            "\(M.self) cannot use table \(table): it is WITHOUT ROWID, and models need rowid tables "
                + "because the fetched-results controller and watchers identify rows by rowid")
    }
}
