import ArgumentParser
import Foundation
import SQLiteStore

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

    /// The store of the database file; failures exit with code 3.
    func openStore(ifMissing: MissingDatabase) throws -> Store {
        var configuration = StoreConfiguration()
        configuration.readerCount = 0
        configuration.busyTimeout = .seconds(60)
        do {
            if !FileManager.default.fileExists(atPath: database) {
                switch ifMissing {
                case .create: break
                case .useEmpty: return try Store.inMemory(configuration: configuration)
                case .fail: throw CommandFailure(status: .databaseUnavailable, kind: "database", message: "no database at \(database)")
                }
            }
            return try Store(path: database, configuration: configuration)
        } catch let error as StoreError {
            throw CommandFailure(status: .databaseUnavailable, kind: "database",
                                 message: "cannot open the database \(database): \(error.message)", storeError: error)
        }
    }

    /// The migrator options for the `--allow-…` flags.
    static func migrationOptions(allowEdited: Bool, allowOutOfOrder: Bool) -> MigrationOptions {
        var options: MigrationOptions = []
        if allowEdited { options.insert(.allowEdited) }
        if allowOutOfOrder { options.insert(.allowOutOfOrder) }
        return options
    }
}
