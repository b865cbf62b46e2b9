import CSQLite

extension Database {
    /// Runs `body` in a savepoint with foreign keys checked once at its end instead of after
    /// each statement (`PRAGMA defer_foreign_keys`), so that the rows of a parent loop can be
    /// inserted or deleted one at a time. When a violation remains at the end, everything
    /// `body` did is undone and a `FOREIGN KEY` constraint error is thrown.
    ///
    /// The check is SQLite's count of unresolved constraints (`SQLITE_DBSTATUS_DEFERRED_FKS`);
    /// when the transaction already held unresolved deferred constraints before, `body`'s own
    /// cannot be told apart from them and are left to `COMMIT`. Nested in another such call, it
    /// leaves the check to the outer one.
    package func withDeferredForeignKeys<T>(_ body: () throws -> T) throws -> T {
        let heldBefore = hasUnresolvedForeignKeys
        let deferredAlready = try fetchValue(Bool.self, sql: "PRAGMA defer_foreign_keys") ?? false
        return try transaction {
            if !deferredAlready { try execute(sql: "PRAGMA defer_foreign_keys = ON") }
            defer { if !deferredAlready { try? execute(sql: "PRAGMA defer_foreign_keys = OFF") } }
            let result = try body()
            if !heldBefore && hasUnresolvedForeignKeys {  // SQLITE_CONSTRAINT_FOREIGNKEY, a macro C gives Swift only in part
                throw StoreError(
                    code: .constraint, extendedCode: SQLITE_CONSTRAINT | (3 << 8), message: "FOREIGN KEY constraint failed")
            }
            return result
        }
    }

    /// Whether the open transaction has foreign key constraints not satisfied yet (deferred ones).
    private var hasUnresolvedForeignKeys: Bool {
        var current: Int32 = 0
        var highest: Int32 = 0
        return sqlite3_db_status(handle, SQLITE_DBSTATUS_DEFERRED_FKS, &current, &highest, 0) == SQLITE_OK && current != 0
    }
}
