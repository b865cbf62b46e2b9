/// How a `Store` opens and sets up its connections.
public struct StoreConfiguration: Sendable {
    /// SQLite's journal modes (<https://www.sqlite.org/pragma.html#pragma_journal_mode>).
    public enum JournalMode: String, Sendable {
        /// Write-ahead logging: readers run concurrently with the writer. The default.
        case wal = "WAL"
        /// Rollback journal deleted at each commit.
        case delete = "DELETE"
        /// Rollback journal truncated at each commit.
        case truncate = "TRUNCATE"
        /// Rollback journal kept and zeroed at each commit.
        case persist = "PERSIST"
    }

    /// SQLite's `synchronous` settings (<https://www.sqlite.org/pragma.html#pragma_synchronous>).
    public enum Synchronous: String, Sendable {
        /// No syncs: fastest, may corrupt on power loss.
        case off = "OFF"
        /// Syncs at checkpoints in WAL mode: durable across crashes of the app, not always of the OS. The default.
        case normal = "NORMAL"
        /// Syncs at every commit.
        case full = "FULL"
    }

    /// The journal mode; `.wal` by default. In-memory stores ignore it.
    public var journalMode: JournalMode = .wal
    /// The `synchronous` setting; `.normal` by default.
    public var synchronous: Synchronous = .normal
    /// Whether foreign key constraints are enforced; `true` by default.
    public var foreignKeys = true
    /// How long a connection waits for a lock held by another process before failing with `SQLITE_BUSY`; 5 s by default.
    public var busyTimeout: Duration = .seconds(5)
    /// How many read-only connections serve concurrent reads; 4 by default. With 0 (and in memory) reads run on the writer.
    public var readerCount = 4
    /// The most memory, in bytes, the writer's page cache may hold (`PRAGMA cache_size`); 16 MiB
    /// by default, `nil` for SQLite's own default of 2 MiB. A write transaction whose pages
    /// outgrow the cache writes them to the journal before it commits and reads them back (with
    /// 2 MiB, inserting 100,000 rows with UUID keys in one write took about 1.6 times as long).
    /// The cache takes memory only for the pages the writer touched, and keeps it until the
    /// store closes. Readers keep SQLite's default; set theirs in `prepareDatabase`.
    public var writerCacheSize: Int? = 16 << 20
    /// Whether the store only reads: the file must exist already, its journal mode is left as
    /// it is, and every connection refuses writes (`PRAGMA query_only`), so `write` fails with
    /// `SQLITE_READONLY`. The store still sees other processes' commits. `false` by default.
    public var isReadOnly = false
    /// How often the store checks for commits by other connections and processes
    /// (`PRAGMA data_version`) while anyone observes its changes; 100 ms by default, `nil` never.
    public var externalChangePollInterval: Duration? = .milliseconds(100)
    /// Swift collations registered on every connection, writer and readers, before
    /// `prepareDatabase` runs: SQL's `COLLATE name` and a fetched-results controller then
    /// order with the same function. Empty by default.
    public var collations: [Collation] = []
    /// Called on every new connection, writer and readers, after the store's own pragmas:
    /// set your own pragmas, register functions or collations here.
    public var prepareDatabase: (@Sendable (Database) throws -> Void)?
    /// What a module built on the store installs on its writer when the store opens (the sync
    /// module's `StoreConfiguration.sync` sets it); `nil`, the default, installs nothing.
    package var commitParticipant: (any CommitParticipantSettings)?

    /// The default configuration.
    /// Where change capture reads rows from: the best the linked SQLite offers, or the update
    /// hook forced, so that tests on Linux exercise what Apple's system SQLite gives.
    var changeCaptureSource: ChangeCapture.Source = .best

    public init() {}
}
