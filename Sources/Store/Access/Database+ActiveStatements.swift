import CSQLite

extension Database {
    /// Rewinds every statement of the connection that is still stepping.
    ///
    /// A statement left half-read (a fetch that failed to decode a row, an unfinished cursor)
    /// keeps its snapshot open after COMMIT or ROLLBACK: a reader would see that old snapshot
    /// in every later read. Transactions call this before they end.
    func resetActiveStatements() {
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { sqlite3_reset(current) }
            statement = sqlite3_next_stmt(handle, current)
        }
    }
}
