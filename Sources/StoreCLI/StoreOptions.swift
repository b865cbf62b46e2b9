import ArgumentParser
import Foundation
import SQLiteStoreCore

/// The options every subcommand takes: where the database and the migrations are, and
/// whether to print JSON.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The database file.", valueName: "path"))
    var database = "store.sqlite"

    @Option(name: .long, help: ArgumentHelp("The folder of NNNN_name.sql migration files.", valueName: "dir"))
    var migrations = "Migrations"

    @Flag(name: .long, help: "Print one JSON document on standard output instead of text.")
    var json = false

    /// What to do when the database file does not exist.
    enum MissingDatabase {
        /// Create it.
        case create
        /// Use an empty in-memory database instead, and create nothing.
        case useEmpty
        /// Fail with exit code 3.
        case fail
    }

    /// The migrations of the migrations folder.
    func loadMigrator() throws -> Migrator {
        try Migrator(folder: migrations)
    }

    /// The store of the database file, for reading and writing; failures exit with code 3.
    func openStore(ifMissing: MissingDatabase) throws -> Store {
        let file = try DatabaseFile(path: database, allowEmpty: true)
        if !file.exists && ifMissing != .create { return try substitute(ifMissing) }
        return try file.openStore(at: database, configuration: Self.configuration)
    }

    /// The store of the database file, only for reading: the file is never created, and
    /// neither its bytes, its modification time nor its journal mode change (see
    /// `DatabaseFile.readOnlyURI`). Failures, an empty file included, exit with code 3;
    /// `.create` counts as `.fail`.
    func openStoreForReading(ifMissing: MissingDatabase) throws -> Store {
        let file = try DatabaseFile(path: database)
        guard file.exists else { return try substitute(ifMissing) }
        var configuration = Self.configuration
        configuration.isReadOnly = true
        return try file.openStore(at: file.readOnlyURI(followsChanges: false), configuration: configuration)
    }

    /// Runs `body` with the store `openStoreForReading(ifMissing:)` opens, then closes it: the
    /// `-wal` and `-shm` files a read of a WAL database may make are gone before the command ends.
    func withStoreForReading<T>(ifMissing: MissingDatabase, _ body: (Store) throws -> T) throws -> T {
        let store = try openStoreForReading(ifMissing: ifMissing)
        defer { try? store.close() }
        return try body(store)
    }

    /// An empty in-memory store for `.useEmpty`; otherwise the exit-3 failure for a missing file.
    private func substitute(_ ifMissing: MissingDatabase) throws -> Store {
        guard ifMissing == .useEmpty else {
            throw CommandFailure(status: .databaseUnavailable, kind: "database", message: "no database at \(database)")
        }
        return try Store.inMemory(configuration: Self.configuration)
    }

    private static var configuration: StoreConfiguration {
        var configuration = StoreConfiguration()
        configuration.readerCount = 0
        configuration.busyTimeout = .seconds(60)
        return configuration
    }

    /// The migrator options for the `--allow-…` flags.
    static func migrationOptions(allowEdited: Bool, allowOutOfOrder: Bool) -> MigrationOptions {
        var options: MigrationOptions = []
        if allowEdited { options.insert(.allowEdited) }
        if allowOutOfOrder { options.insert(.allowOutOfOrder) }
        return options
    }
}
