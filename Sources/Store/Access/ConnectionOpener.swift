import CSQLite
import Foundation

/// Opens and sets up the connections of one store.
struct ConnectionOpener {
    let path: String
    let configuration: StoreConfiguration

    /// The writer: creates the file if needed and sets the journal mode; for a read-only
    /// store, opens an existing file as it is and refuses writes.
    func openWriter(inMemory: Bool) throws -> Database {
        let cacheKibibytes = try writerCacheKibibytes()
        let creation = configuration.isReadOnly ? 0 : SQLITE_OPEN_CREATE
        let db = try Database(path: path, flags: SQLITE_OPEN_READWRITE | creation)
        try configureConnection(db)
        if configuration.isReadOnly {
            try requireDatabase(db)
            try db.execute(sql: "PRAGMA query_only = ON")
        } else if !inMemory {
            try setJournalMode(db)
        }
        try db.execute(sql: "PRAGMA synchronous = \(configuration.synchronous.rawValue)")
        if let cacheKibibytes { try db.execute(sql: "PRAGMA cache_size = -\(cacheKibibytes)") }
        try finishSetUp(db)
        return db
    }

    /// `writerCacheSize` in whole kibibytes, rounded up (a negative `cache_size` counts
    /// kibibytes), or `nil` for SQLite's default; checked before the file is opened.
    private func writerCacheKibibytes() throws -> Int? {
        guard let bytes = configuration.writerCacheSize else { return nil }
        guard bytes > 0 else { throw StoreError.misuse("writerCacheSize must be a positive number of bytes or nil, not \(bytes)") }
        return bytes / 1024 + (bytes % 1024 == 0 ? 0 : 1)
    }

    /// Reads the schema, so that a file that is not a database fails now with `SQLITE_NOTADB`.
    private func requireDatabase(_ db: Database) throws {
        _ = try db.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_schema")
    }

    /// A reader: the same file, refusing writes (`PRAGMA query_only`).
    func openReader() throws -> Database {
        let db = try Database(path: path, flags: SQLITE_OPEN_READWRITE)
        try configureConnection(db)
        try db.execute(sql: "PRAGMA query_only = ON")
        try finishSetUp(db)
        return db
    }

    /// A connection for ``WALCheckpointer``: the same file, read once, so that the connection
    /// knows it in WAL mode (a checkpoint of a connection that never read the file does nothing).
    func openCheckpointer() throws -> Database {
        let db = try Database(path: path, flags: SQLITE_OPEN_READWRITE)
        try configureConnection(db)
        try requireDatabase(db)
        return db
    }

    /// What the writer and the readers share last: foreign keys, the registered collations,
    /// then the configuration's own `prepareDatabase`.
    private func finishSetUp(_ db: Database) throws {
        try db.execute(sql: "PRAGMA foreign_keys = \(configuration.foreignKeys ? "ON" : "OFF")")
        for collation in configuration.collations { try db.register(collation) }
        try configuration.prepareDatabase?(db)
    }

    /// Settings every connection gets: the busy timeout, and quoted names that must name columns.
    private func configureConnection(_ db: Database) throws {
        try setBusyTimeout(db)
        try db.check(csqlite_disable_double_quoted_strings(db.handle), sql: nil)
    }

    private func setBusyTimeout(_ db: Database) throws {
        let (seconds, attoseconds) = configuration.busyTimeout.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        try db.check(sqlite3_busy_timeout(db.handle, Int32(clamping: milliseconds)), sql: nil)
    }

    /// Sets the journal mode and checks that SQLite accepted it (it silently keeps the old one otherwise).
    ///
    /// Two connections switching a new file to WAL at once can get `SQLITE_BUSY` without the
    /// busy handler being consulted, so a busy answer is retried until the busy timeout runs out.
    private func setJournalMode(_ db: Database) throws {
        let mode = configuration.journalMode.rawValue
        let deadline = ContinuousClock.now + configuration.busyTimeout
        while true {
            do {
                try requireDatabase(db)
                let actual = try db.fetchValue(String.self, sql: "PRAGMA journal_mode = \(mode)")
                guard actual?.uppercased() == mode else {
                    throw StoreError(
                        code: .error, message: "journal mode \(mode) refused; the database stays in \(actual ?? "unknown") mode")
                }
                return
            } catch let error as StoreError where error.code == .busy && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
    }
}
