import CSQLite

/// Opens and sets up the connections of one store.
struct ConnectionOpener {
    let path: String
    let configuration: StoreConfiguration

    /// The writer: creates the file if needed and sets the journal mode.
    func openWriter(inMemory: Bool) throws -> Database {
        let db = try Database(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        try setBusyTimeout(db)
        if !inMemory {
            try setJournalMode(db)
        }
        try db.execute(sql: "PRAGMA synchronous = \(configuration.synchronous.rawValue)")
        try db.execute(sql: "PRAGMA foreign_keys = \(configuration.foreignKeys ? "ON" : "OFF")")
        try configuration.prepareDatabase?(db)
        return db
    }

    /// A reader: the same file, refusing writes (`PRAGMA query_only`).
    func openReader() throws -> Database {
        let db = try Database(path: path, flags: SQLITE_OPEN_READWRITE)
        try setBusyTimeout(db)
        try db.execute(sql: "PRAGMA query_only = ON")
        try db.execute(sql: "PRAGMA foreign_keys = \(configuration.foreignKeys ? "ON" : "OFF")")
        try configuration.prepareDatabase?(db)
        return db
    }

    private func setBusyTimeout(_ db: Database) throws {
        let (seconds, attoseconds) = configuration.busyTimeout.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        try db.check(sqlite3_busy_timeout(db.handle, Int32(clamping: milliseconds)), sql: nil)
    }

    /// Sets the journal mode and checks that SQLite accepted it (it silently keeps the old one otherwise).
    private func setJournalMode(_ db: Database) throws {
        let mode = configuration.journalMode.rawValue
        // Reading the schema first makes a non-database file fail here with SQLITE_NOTADB.
        _ = try db.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_schema")
        let actual = try db.fetchValue(String.self, sql: "PRAGMA journal_mode = \(mode)")
        guard actual?.uppercased() == mode else {
            throw StoreError(code: .error, message: "journal mode \(mode) refused; the database stays in \(actual ?? "unknown") mode")
        }
    }
}
