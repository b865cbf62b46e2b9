import PostgresNIO

/// What PostgreSQL said, for an operator: its message when it refused, else the error's
/// details (a `PSQLError`'s description hides them).
func postgresReason(_ error: any Error) -> String {
    if let error = error as? PSQLError, let message = error.serverInfo?[.message] { return message }
    return String(reflecting: error)
}
