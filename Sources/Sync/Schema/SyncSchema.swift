import SQLiteStoreCore

/// The synced tables of a schema, the columns of each that sync, and the schema's version:
/// what a sync server checks pushes against, so that it stores no change that a device
/// could not apply (see <doc:SyncBetweenDevices>).
///
/// It is read from a store with the checks a store makes when it opens with
/// `StoreConfiguration.sync`: a table that a device could not sync cannot be in it.
public struct SyncSchema: Sendable, Hashable {
    /// The schema version: the highest migration applied, 0 without migrations.
    public let version: Int64
    /// Each synced table's name, its ASCII letters lowercased, and the columns of it that sync, in table order:
    /// every column but the primary key and generated ones.
    public let columns: [String: [String]]

    /// The synced tables `tables` of `store`'s schema.
    ///
    /// - Throws: `StoreError` (`.misuse`) naming a table that does not exist or cannot sync
    ///   (the error a store configured to sync it would throw).
    public init(tables: Set<String>, of store: Store) throws {
        let read = try store.read { db -> (version: Int64, columns: [String: [String]]) in
            let synced = try tables.map { try SyncedTable.load($0, from: db) }
            return (
                version: try SyncStorage.schemaVersion(in: db),
                columns: Dictionary(synced.map { ($0.name, $0.columns) }, uniquingKeysWith: { first, _ in first })
            )
        }
        version = read.version
        columns = read.columns
    }

    /// The synced `tables` of the schema that `migrator`'s migrations build, applied to an
    /// in-memory database: what a server learns from the apps' migrations.
    ///
    /// - Throws: `MigrationError` when a migration fails; `StoreError` (`.misuse`) naming a
    ///   table that does not exist or cannot sync.
    public init(tables: Set<String>, migrator: Migrator) throws {
        let store = try Store.inMemory()
        defer { try? store.close() }
        try migrator.migrate(store)
        try self.init(tables: tables, of: store)
    }

    /// Why a change of `table` that sets `column` (`nil`: a delete) cannot be applied under this
    /// schema, or `nil` when it can. Names compare as a store's do: a table's with ASCII letters
    /// in any case, a column's exactly, each by its UTF-8 bytes (a canonically equivalent
    /// spelling is another name, which every device would refuse).
    public func refusal(table: String, column: String?) -> String? {
        guard let synced = columns.value(spelled: table.sqliteIdentifierFolded) else {
            return "table \"\(table)\" is not synced (synced: \(columns.keys.sorted().joined(separator: ", ")))"
        }
        if let column, !synced.containsSpelling(column) {
            return "column \"\(column)\" of table \"\(table)\" is not synced (synced: \(synced.joined(separator: ", ")))"
        }
        return nil
    }
}
