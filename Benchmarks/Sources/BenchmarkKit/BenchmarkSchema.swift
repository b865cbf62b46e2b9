/// The SQL every contender shares: one table, one index, the same pragmas.
public enum BenchmarkSchema {
    /// The table every workload reads and writes.
    public static let tableName = "item"

    /// Creates the `item` table and its index on `score`.
    public static let createStatements = [
        """
        CREATE TABLE item(
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL,
            score REAL NOT NULL,
            createdAt REAL NOT NULL,
            flag INTEGER NOT NULL,
            category TEXT NOT NULL)
        """,
        "CREATE INDEX item_score ON item(score)",
    ]

    /// Persistent journal mode of every benchmark database (GRDB's `DatabasePool` sets it by itself).
    public static let journalModePragma = "PRAGMA journal_mode = WAL"

    /// Per-connection durability setting, applied by every contender to each of its connections.
    /// The page cache stays at SQLite's default size and memory mapping stays off for everybody
    /// (SQLiteStore's contenders open their store with `writerCacheSize` set to `nil`).
    public static let synchronousPragma = "PRAGMA synchronous = NORMAL"

}
