/// The prepared statements that `Database.cachedStatement(sql:)` reuses: at most `capacity`,
/// the least recently used one dropped to make room. SQL is told apart by its bytes, as SQLite
/// reads it: String's `==` equates canonically equivalent texts, so `SELECT 'é'` would have run
/// the statement prepared for `SELECT 'e\u{301}'`, and a table's name the other table's.
///
/// Bounded because SQL built with literals (`execute(sql: "… WHERE id = 42")`) would otherwise
/// keep one prepared statement, with its compiled program, per distinct string for the life of
/// the connection. 64 holds every statement an app repeats (transaction control, savepoints,
/// its models' writes and its requests) with room to spare; Python's `sqlite3` module keeps
/// 128 by default and Android's `SQLiteDatabase` 25. A dropped statement that a caller still
/// holds stays valid: it is finalized when its last reference goes.
struct StatementCache {
    /// How many statements a connection keeps.
    static let defaultCapacity = 64

    private struct Entry {
        let statement: Statement
        var lastUse: UInt64
    }

    let capacity: Int
    private var entries: [BytesKey: Entry] = [:]
    private var clock: UInt64 = 0

    init(capacity: Int = Self.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// How many statements are cached.
    var count: Int { entries.count }

    /// The statement cached for `sql`, now the most recently used, or `nil`.
    mutating func statement(for sql: String) -> Statement? {
        clock += 1
        let now = clock
        let key = BytesKey(string: sql)
        return entries[key].map { entry in
            entries[key]?.lastUse = now
            return entry.statement
        }
    }

    /// Caches `statement` for `sql`, dropping the least recently used statement when full.
    mutating func insert(_ statement: Statement, for sql: String) {
        let key = BytesKey(string: sql)
        if entries.count >= capacity, entries[key] == nil,
            let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
        {
            entries[oldest] = nil
        }
        clock += 1
        entries[key] = Entry(statement: statement, lastUse: clock)
    }

    /// Drops every statement.
    mutating func removeAll() { entries.removeAll() }
}
