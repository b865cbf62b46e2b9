import CSQLite

extension Database {
    /// Runs `body` with an authorizer that lets the statements prepared in it read only
    /// `table` of the main schema: a statement that reads any other table or view, directly,
    /// in a subquery, through a view or a trigger, fails to prepare with `SQLITE_AUTH`
    /// ("access to secret.x is prohibited"). SQLite consults the authorizer when it prepares,
    /// so statements prepared in `body` keep running as checked.
    ///
    /// For connections with no authorizer of their own (a store's readers): afterwards the
    /// connection has none. Throws `SQLITE_MISUSE` on a connection that captures changes.
    package func withReads<T>(limitedTo table: String, _ body: () throws -> T) throws -> T {
        guard changeCapture == nil else {
            throw StoreError.misuse("withReads(limitedTo:) needs a connection without an authorizer; the writer has one")
        }
        let allowance = ReadAllowance(table: table)
        try check(
            sqlite3_set_authorizer(
                handle,
                { context, action, table, _, schema, _ in
                    guard action == SQLITE_READ, let context else { return SQLITE_OK }
                    let allowance = Unmanaged<ReadAllowance>.fromOpaque(context).takeUnretainedValue()
                    return allowance.allows(table: table, schema: schema) ? SQLITE_OK : SQLITE_DENY
                }, Unmanaged.passUnretained(allowance).toOpaque()), sql: nil)
        defer { sqlite3_set_authorizer(handle, nil, nil) }
        return try withExtendedLifetime(allowance) { try body() }
    }
}

/// The one table an authorizer lets statements read.
private final class ReadAllowance {
    /// The table's name, compared as SQLite compares names: ASCII letters in any case.
    private let table: String

    init(table: String) {
        self.table = table
    }

    func allows(table name: UnsafePointer<CChar>?, schema: UnsafePointer<CChar>?) -> Bool {
        // SQLite names no schema for some reads of a table it resolved already.
        guard let name, schema.map({ String(cString: $0) == "main" }) ?? true else { return false }
        return String(cString: name).matchesSQLiteIdentifier(table)
    }
}
