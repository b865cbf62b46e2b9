import CSQLite

extension Database {
    /// Notes that `statement` returned a row: it may be left open when the transaction ends.
    ///
    /// Statements finished or reset since they were noted are dropped from the list whenever it
    /// doubles, so that a transaction running many distinct queries keeps only the open ones alive.
    func noteStepped(_ statement: Statement) {
        statement.isNotedAsStepped = true
        steppedStatements.append(statement)
        guard steppedStatements.count >= steppedStatementsLimit else { return }
        steppedStatements.removeAll { noted in
            let isOpen = sqlite3_stmt_busy(noted.handle) != 0
            if !isOpen { noted.isNotedAsStepped = false }
            return !isOpen
        }
        steppedStatementsLimit = max(Self.minimumSteppedStatementsLimit, 2 * steppedStatements.count)
    }

    /// Rewinds every statement that returned a row since the last call and is still stepping.
    ///
    /// A statement left half-read (a fetch that failed to decode a row, an unfinished cursor)
    /// keeps its snapshot open after COMMIT or ROLLBACK: a reader would see that old snapshot
    /// in every later read. Transactions call this before they end. Only a statement that
    /// returned a row can be left open, and `Statement.step` notes each one once, so this
    /// looks at those alone, not at every statement the connection has prepared.
    func resetActiveStatements() {
        for statement in steppedStatements {
            if sqlite3_stmt_busy(statement.handle) != 0 { sqlite3_reset(statement.handle) }
            statement.isNotedAsStepped = false
        }
        steppedStatements.removeAll(keepingCapacity: true)
    }

    /// How many noted statements trigger the first clean-up of the list.
    static let minimumSteppedStatementsLimit = 128
}
