import Foundation

/// One row of the ledger: a migration applied to the database.
struct LedgerEntry: Sendable, Hashable {
    let version: Int
    let name: String
    let checksum: String
    /// `nil` when the stored text is not an ISO 8601 timestamp.
    let appliedAt: Date?
    let durationMilliseconds: Int
}

/// The table `store_migrations(version, name, checksum, applied_at, duration_ms)` that records
/// which migrations a database has applied.
package enum Ledger {
    /// The ledger's table name.
    package static let tableName = "store_migrations"

    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// Creates the ledger if the database has none.
    static func create(in db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS \(tableName) (
                    version INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    checksum TEXT NOT NULL,
                    applied_at TEXT NOT NULL,
                    duration_ms INTEGER NOT NULL
                )
                """)
    }

    /// The applied migrations in version order; none when the database has no ledger.
    static func entries(in db: Database) throws -> [LedgerEntry] {
        let exists =
            try db.fetchValue(
                Bool.self, sql: "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?",
                arguments: [tableName]) ?? false
        guard exists else { return [] }
        return try db.fetchRows(sql: "SELECT version, name, checksum, applied_at, duration_ms FROM \(tableName) ORDER BY version")
            .map { row in
                LedgerEntry(
                    version: try row.decode(column: "version"),
                    name: try row.decode(column: "name"),
                    checksum: try row.decode(column: "checksum"),
                    appliedAt: try? timestampStyle.parse(row.decode(String.self, column: "applied_at")),
                    durationMilliseconds: try row.decode(column: "duration_ms"))
            }
    }

    /// Records `migration` as applied now.
    static func recordApplied(_ migration: Migration, duration: Duration, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO \(tableName) (version, name, checksum, applied_at, duration_ms) VALUES (?, ?, ?, ?, ?)",
            arguments: [
                migration.version, migration.name, migration.checksum,
                Date().formatted(timestampStyle), Int(duration / .milliseconds(1)),
            ])
    }

    /// Removes the record of `version`, after it was undone.
    static func recordUndone(_ version: Int, in db: Database) throws {
        try db.execute(sql: "DELETE FROM \(tableName) WHERE version = ?", arguments: [version])
    }
}
