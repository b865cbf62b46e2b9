import CSQLite
import Dispatch

/// A SQLite database file with one serialized writer and a pool of concurrent readers.
///
/// ```swift
/// let store = try Store(path: path)
/// try store.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
/// let count = try store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM t") }
/// ```
///
/// `write` runs its closure in a transaction on the only writer connection, one write at a
/// time; `read` runs on a reader connection in its own snapshot, concurrently with writes
/// (in WAL mode). Both come in a synchronous form and an `async` form that honours task
/// cancellation. A `Store` is `Sendable`; the `Database` a closure receives must not escape it.
public final class Store: Sendable {
    /// The path of the database file (`:memory:` for an in-memory store).
    public let path: String
    /// The configuration the store was opened with.
    public let configuration: StoreConfiguration
    let writer: SerializedConnection
    let readers: ReaderPool?
    /// Checkpoints the WAL beside the writer's commits; `nil` outside WAL mode, in memory, read-only.
    let checkpointer: WALCheckpointer?
    let roleKey = DispatchSpecificKey<ConnectionRole>()
    let broadcaster: ChangeBroadcaster
    let externalChangeCheck: ExternalChangeCheck
    let externalChangeMonitor: ExternalChangeMonitor?

    /// Opens, or creates, the database file at `path`.
    ///
    /// - Parameters:
    ///   - path: The database file; created when it does not exist.
    ///   - configuration: Journal mode, readers, busy timeout, collations, change capture.
    /// - Throws: `StoreError` when the file cannot be opened, is not a database
    ///   (`SQLITE_NOTADB`), or a pragma of the configuration fails.
    public convenience init(path: String, configuration: StoreConfiguration = StoreConfiguration()) throws {
        try self.init(path: path, configuration: configuration, inMemory: false)
    }

    /// A private in-memory store, for tests and previews: reads run on the writer connection.
    public static func inMemory(configuration: StoreConfiguration = StoreConfiguration()) throws -> Store {
        try Store(path: ":memory:", configuration: configuration, inMemory: true)
    }

    private init(path: String, configuration: StoreConfiguration, inMemory: Bool) throws {
        self.path = path
        self.configuration = configuration
        let opener = ConnectionOpener(path: path, configuration: configuration)
        let writerDatabase = try opener.openWriter(inMemory: inMemory)
        let broadcaster = ChangeBroadcaster()
        self.broadcaster = broadcaster
        writerDatabase.changeCapture = try ChangeCapture(
            database: writerDatabase, source: configuration.changeCaptureSource,
            isObserved: { broadcaster.hasSubscribers }, publish: broadcaster.publish)
        if let participant = configuration.commitParticipant {
            writerDatabase.commitParticipant = try participant.makeParticipant(on: writerDatabase)
        }
        checkpointer =
            inMemory || configuration.isReadOnly
            ? nil : try WALCheckpointer.install(on: writerDatabase, openConnection: opener.openCheckpointer)
        writer = SerializedConnection(database: writerDatabase, role: .writer, roleKey: roleKey)
        let readerCount = inMemory ? 0 : max(0, configuration.readerCount)
        let readerConnections = try (0..<readerCount).map { [roleKey] index in
            SerializedConnection(database: try opener.openReader(), role: .reader(index: index), roleKey: roleKey)
        }
        readers = readerConnections.isEmpty ? nil : ReaderPool(readers: readerConnections)
        let check = ExternalChangeCheck(broadcaster: broadcaster)
        externalChangeCheck = check
        externalChangeMonitor =
            inMemory
            ? nil
            : configuration.externalChangePollInterval.map { [writer] interval in
                ExternalChangeMonitor(interval: interval, on: writer, check: check) { broadcaster.hasSubscribers }
            }
    }

    var currentRole: ConnectionRole? { DispatchQueue.getSpecific(key: roleKey) }

    /// Whether reads run on the writer connection (an in-memory store, or no readers): then a
    /// read transaction kept open holds up every write until it ends.
    package var readsOnWriter: Bool { readers == nil }

    // MARK: Writing

    /// Runs `body` in a write transaction and waits for it: committed when `body` returns,
    /// rolled back when it throws. Use `db.transaction { }` inside for savepoints.
    ///
    /// - Parameter body: The transaction's work, given the writer connection.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (after the rollback), `StoreError` when the commit fails,
    ///   and `SQLITE_MISUSE` when called inside another `write` or inside a `read` of this store.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try checkWriteAllowed()
        return try writer.sync { db in try WriteTransaction.run(on: db, cancellation: nil, body) }
    }

    /// Runs `body` in a write transaction without blocking the caller's thread.
    ///
    /// Cancelling the calling task interrupts the running statement, rolls the transaction
    /// back and throws `CancellationError`; a task cancelled before the write starts never writes.
    ///
    /// - Parameter body: The transaction's work, given the writer connection, on its queue.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (after the rollback), `StoreError`, or `CancellationError`.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try checkWriteAllowed()
        return try await run(on: writer) { db, cancellation in
            try WriteTransaction.run(on: db, cancellation: cancellation, body)
        }
    }

    /// Runs `first` and then `second`, given what `first` returned, in write transactions of
    /// their own, on one turn of the writer: `first` commits, and its changes are published,
    /// before `second` begins, and no other write runs between them. When `second` throws,
    /// `first` stays committed.
    @discardableResult
    package func write<T>(_ first: (Database) throws -> T, then second: (T, Database) throws -> Void) throws -> T {
        try checkWriteAllowed()
        return try writer.sync { db in
            let value = try WriteTransaction.run(on: db, cancellation: nil, first)
            try WriteTransaction.run(on: db, cancellation: nil) { db in try second(value, db) }
            return value
        }
    }

    /// ``write(_:then:)`` without blocking the caller's thread. Cancelling the calling task
    /// stops `first` as it stops a write; once `first` has committed, `second` runs to its end.
    @discardableResult
    package func write<T: Sendable>(
        _ first: @escaping @Sendable (Database) throws -> T, then second: @escaping @Sendable (T, Database) throws -> Void
    ) async throws -> T {
        try checkWriteAllowed()
        return try await run(on: writer) { db, cancellation in
            let value = try WriteTransaction.run(on: db, cancellation: cancellation, first)
            cancellation.finish()
            try WriteTransaction.run(on: db, cancellation: nil) { db in try second(value, db) }
            return value
        }
    }

    /// Runs `body` on the writer connection with no transaction around it: each statement
    /// commits on its own unless `body` opens a transaction itself. For what cannot run in a
    /// transaction (`VACUUM`, `PRAGMA journal_mode`, `PRAGMA foreign_keys`); a transaction
    /// left open when `body` returns or throws is rolled back.
    public func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try checkWriteAllowed()
        return try writer.sync { db in
            defer { db.rollback() }
            return try body(db)
        }
    }

    private func checkWriteAllowed() throws {
        switch currentRole {
        case .writer?: throw StoreError.misuse("write called inside a write of the same store; use db.transaction { } for a savepoint")
        case .reader?: throw StoreError.misuse("write called inside a read of the same store")
        case nil: break
        }
    }

    // MARK: Reading

    /// Runs `body` in a read-only snapshot and waits for it. Inside a `write` it reads the
    /// writer's uncommitted state; inside a `read` it joins that read's snapshot.
    ///
    /// - Parameter body: The reading, given a reader connection.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or `StoreError`.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        if let role = currentRole {
            return try connection(for: role).onQueue { db in try ReadTransaction.run(on: db, cancellation: nil, body) }
        }
        guard let readers else {
            return try writer.sync { db in try ReadTransaction.run(on: db, cancellation: nil, body) }
        }
        let reader = Self.waitForReader(in: readers)
        defer { readers.checkin(reader) }
        return try reader.sync { db in try ReadTransaction.run(on: db, cancellation: nil, body) }
    }

    /// Runs `body` in a read-only snapshot without blocking the caller's thread; cancellation
    /// interrupts the query and throws `CancellationError`.
    ///
    /// - Parameter body: The reading, given a reader connection, on its queue.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, `StoreError`, or `CancellationError`.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        guard let readers else {
            return try await run(on: writer) { db, cancellation in
                try ReadTransaction.run(on: db, cancellation: cancellation, body)
            }
        }
        let reader = await withCheckedContinuation { continuation in
            readers.checkout { continuation.resume(returning: $0) }
        }
        defer { readers.checkin(reader) }
        return try await run(on: reader) { db, cancellation in
            try ReadTransaction.run(on: db, cancellation: cancellation, body)
        }
    }

    private func connection(for role: ConnectionRole) -> SerializedConnection {
        readers?.reader(for: role) ?? writer
    }

    static func waitForReader(in pool: ReaderPool) -> SerializedConnection {
        let ready = DispatchSemaphore(value: 0)
        let handedOver = Locked<SerializedConnection?>(nil)
        pool.checkout { reader in
            handedOver.withLock { $0 = reader }
            ready.signal()
        }
        ready.wait()
        // The handler ran before `signal`, so the reader is there.
        return handedOver.withLock { $0 }.unsafelyUnwrapped
    }

    /// Runs a job on `connection`'s queue, tied to the current task's cancellation.
    private func run<T: Sendable>(
        on connection: SerializedConnection,
        _ job: @escaping @Sendable (Database, JobCancellation) throws -> T
    ) async throws -> T {
        let cancellation = JobCancellation()
        return try await withTaskCancellationHandler {
            try await connection.async { db in
                try cancellation.start(on: connection)
                defer { cancellation.finish() }
                return try job(db, cancellation)
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}
