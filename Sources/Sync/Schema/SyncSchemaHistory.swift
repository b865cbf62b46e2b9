import SQLiteStoreCore

/// The synced schema at each version the apps' migrations reach, and which of those versions
/// can still sync with the newest: what lets a device on last month's app version go on
/// syncing with devices and a server that migrated since (see <doc:SyncBetweenDevices>).
///
/// A migration is **additive** for sync when every synced table it leaves in place keeps its
/// columns (same declared type, `NOT NULL` and key) and every column it adds can be left out
/// of a row (nullable, or with a default): it may add tables and such columns, and change
/// anything that does not sync. A device on a version from which every later migration is
/// additive syncs with the newest version: it sends the columns it knows, which the merge
/// keeps apart from the newer ones, and receives only what its version has. Any other
/// migration (a synced table or column dropped or renamed, a type or a `NOT NULL` changed, a
/// column added that every row must set) needs the device to upgrade first.
public struct SyncSchemaHistory: Sendable, Hashable {
    /// The synced schema at each version, oldest first: the version before the first migration
    /// (0), then each migration's.
    public let schemas: [SyncSchema]
    /// For each of `schemas`, whether every migration after it is additive.
    private let syncsWithNewest: [Bool]

    /// The newest schema: the one every migration builds.
    public var newest: SyncSchema { schemas[schemas.count - 1] }

    /// The history of `tables` through `migrator`'s migrations, each applied in turn to an
    /// in-memory database. A synced table is part of a version once a migration created it.
    ///
    /// - Throws: `MigrationError` when a migration fails; `StoreError` (`.misuse`) naming a
    ///   table that the newest version does not have or that cannot sync.
    public init(tables: Set<String>, migrator: Migrator) throws {
        let store = try Store.inMemory()
        defer { try? store.close() }
        var schemas: [SyncSchema] = []
        var shapes: [[String: [ColumnShape]]] = []
        for version in [0] + migrator.migrations.map(\.version) {
            if version > 0 { try migrator.migrate(store, to: version) }
            let existing = try store.read { db in
                try Set(tables.filter { try ColumnShape.tableExists($0.sqliteIdentifierFolded, in: db) })
            }
            schemas.append(try SyncSchema(tables: existing, of: store))
            shapes.append(try store.read { db in try ColumnShape.read(existing, in: db) })
        }
        _ = try SyncSchema(tables: tables, of: store)  // the newest version has every table, each able to sync
        var syncsWithNewest = Array(repeating: true, count: schemas.count)
        for index in stride(from: schemas.count - 2, through: 0, by: -1) {
            syncsWithNewest[index] = syncsWithNewest[index + 1] && ColumnShape.isAdditive(from: shapes[index], to: shapes[index + 1])
        }
        self.schemas = schemas
        self.syncsWithNewest = syncsWithNewest
    }

    /// A history of one version: only devices on `schema`'s version sync.
    public init(_ schema: SyncSchema) {
        schemas = [schema]
        syncsWithNewest = [true]
    }

    /// The schema at `version` when a device on it can sync with the newest version, or `nil`
    /// when it cannot: a version newer than the newest, one no migration reaches, or one that a
    /// later migration that is not additive separates from the newest.
    public func schemaSyncingWithNewest(_ version: Int64) -> SyncSchema? {
        guard let index = schemas.firstIndex(where: { $0.version == version }), syncsWithNewest[index] else { return nil }
        return schemas[index]
    }

    /// Why a device on `version` cannot sync, for the error that tells it to upgrade; `nil` when it can.
    public func upgradeReason(forVersion version: Int64) -> String? {
        if version > newest.version {
            return "the device's schema version \(version) is newer than the server's, \(newest.version): upgrade the server"
        }
        guard let index = schemas.firstIndex(where: { $0.version == version }) else {
            return
                "schema version \(version) is not one of the server's migrations (\(schemas.map { String($0.version) }.joined(separator: ", "))): "
                + "upgrade the app"
        }
        guard !syncsWithNewest[index] else { return nil }
        // Versions before the last migration that is not additive cannot sync; it follows the last of them.
        let lastBehind = syncsWithNewest.lastIndex(of: false) ?? index
        return "migration \(schemas[lastBehind + 1].version) changes synced tables in a way that apps on schema version \(version) "
            + "cannot follow: upgrade the app to schema version \(newest.version)"
    }
}

/// A synced column's shape at one version, as `pragma_table_info` gives it.
private struct ColumnShape {
    let name: String
    let type: String
    let notNull: Bool
    let hasDefault: Bool
    let isKey: Bool

    /// Whether this column is `other` as far as sync goes: its name, type, `NOT NULL` and key
    /// (a default may change: a device that leaves the column out of an insert sets none).
    func hasTheShape(of other: ColumnShape) -> Bool {
        name == other.name && type == other.type && notNull == other.notNull && isKey == other.isKey
    }

    static func tableExists(_ table: String, in db: Database) throws -> Bool {
        try db.fetchValue(
            Bool.self, sql: "SELECT count(*) > 0 FROM pragma_table_list WHERE schema = 'main' AND name = ? COLLATE NOCASE",
            arguments: [table])
            ?? false
    }

    /// The columns of each of `tables`, by table name (ASCII letters lowercased).
    static func read(_ tables: Set<String>, in db: Database) throws -> [String: [ColumnShape]] {
        var shapes: [String: [ColumnShape]] = [:]
        for table in tables {
            let name = table.sqliteIdentifierFolded
            shapes[name] = try db.fetchRows(
                sql: "SELECT name, type, \"notnull\", dflt_value IS NOT NULL AS has_default, pk FROM pragma_table_info(?) ORDER BY cid",
                arguments: [name]
            ).map { row in
                ColumnShape(
                    name: try row.decode(String.self, column: "name"), type: try row.decode(String.self, column: "type"),
                    notNull: try row.decode(Bool.self, column: "notnull"), hasDefault: try row.decode(Bool.self, column: "has_default"),
                    isKey: try row.decode(Int64.self, column: "pk") != 0)
            }
        }
        return shapes
    }

    /// Whether the migration from `old` to `new` is additive for sync: every table of `old` is
    /// in `new` with each of its columns unchanged, and each column `new` adds to it may be left out.
    static func isAdditive(from old: [String: [ColumnShape]], to new: [String: [ColumnShape]]) -> Bool {
        old.allSatisfy { table, columns in
            guard let newColumns = new[table] else { return false }
            let kept = columns.allSatisfy { column in newColumns.contains { $0.hasTheShape(of: column) } }
            let added = newColumns.filter { column in !columns.contains { $0.name == column.name } }
            return kept && added.allSatisfy { !$0.isKey && (!$0.notNull || $0.hasDefault) }
        }
    }
}
