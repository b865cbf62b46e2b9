import SQLiteStore

/// Opens the app's database: migrated to the app's schema, and recording its lists and items
/// for sync.
public enum TodoDatabase {
    /// The tables synced with other devices: `StoreConfiguration.sync`, and the server's `--tables`.
    public static let syncedTables: Set<String> = [TodoList.tableName, TodoItem.tableName]

    /// Opens (or creates) the database file at `path`, applies the pending migrations, and
    /// returns the store, which records every local change of ``syncedTables`` for sending.
    ///
    /// The migrations run first, on a store without sync: a store that syncs a table refuses
    /// to open while the table does not exist, which is so on the first launch.
    /// - Throws: `MigrationError` when a migration fails (that migration rolled back),
    ///   ``TodoDatabaseError``, or the `StoreError` of a file that cannot be opened.
    public static func open(at path: String) throws -> Store {
        let migrating = try Store(path: path)
        do {
            try TodoMigrations.migrator().migrate(migrating)
        } catch {
            try? migrating.close()
            throw error
        }
        try migrating.close()
        var configuration = StoreConfiguration()
        configuration.sync = SyncConfiguration(tables: syncedTables)
        return try Store(path: path, configuration: configuration)
    }
}
