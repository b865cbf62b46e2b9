/// A migration that failed while running and was rolled back (unless it runs outside a transaction).
public struct MigrationFailure: Error, CustomStringConvertible {
    /// The migration's version.
    public let version: Int
    /// The migration's name.
    public let name: String
    /// Its file, or a description of a Swift migration.
    public let location: String
    /// Whether it was being applied or undone.
    public let direction: MigrationDirection
    /// The line of the file where the failing statement starts; `nil` for Swift closures
    /// and for the foreign key check that runs after the SQL.
    public let line: Int?
    /// The failing statement's SQL, when known.
    public let statement: String?
    /// Whether the database is as it was before the migration started (always, unless the
    /// migration runs outside a transaction).
    public let wasRolledBack: Bool
    /// What went wrong: usually a `StoreError` with SQLite's codes and message;
    /// foreign key violations are `SQLITE_CONSTRAINT_FOREIGNKEY`.
    public let error: any Error

    /// `file:line: applying migration N failed: message (SQLite error code)`.
    public var description: String {
        let place = line.map { "\(location):\($0)" } ?? location
        let message = (error as? StoreError).map { "\($0.message) (SQLite error \($0.extendedCode))" } ?? String(describing: error)
        let action = direction == .up ? "applying" : "undoing"
        return "\(place): \(action) migration \(version) failed: \(message)"
    }
}
