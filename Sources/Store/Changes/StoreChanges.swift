/// The rows one committed transaction inserted, updated and deleted, table by table.
///
/// Table names compare as SQLite compares them: ASCII letters in any case, every other
/// character as it is (`"Notes"` is `"notes"`, `"CAFÉS"` is not `"cafés"`). Where a change
/// cannot be described row by row (a `WITHOUT ROWID` table, a schema change, `VACUUM`, a write
/// by another connection or process), the table is reported as wholly changed, or the whole
/// database is (`affectsAllTables`).
public struct StoreChanges: Sendable, Equatable, CustomStringConvertible {
    /// The changes of each table, keyed by table name with its ASCII letters lowercased.
    public private(set) var tableChanges: [String: TableChanges]
    /// Whether every table may have changed (schema change, `VACUUM`, another process's write).
    public private(set) var affectsAllTables: Bool
    /// Whether the changes were made by another connection or process (detected through `PRAGMA data_version`).
    public let isExternal: Bool
    /// Whether the changes applied other devices' edits, received through sync (`StoreSync.apply(_:)`).
    public private(set) var isRemote: Bool

    /// Creates changes from per-table parts.
    public init(
        tableChanges: [String: TableChanges] = [:], affectsAllTables: Bool = false, isExternal: Bool = false,
        isRemote: Bool = false
    ) {
        self.tableChanges = Dictionary(tableChanges.map { ($0.key.sqliteIdentifierFolded, $0.value) }, uniquingKeysWith: { $1 })
        self.affectsAllTables = affectsAllTables
        self.isExternal = isExternal
        self.isRemote = isRemote
    }

    /// The same changes, marked as applied from other devices.
    func markedRemote() -> StoreChanges {
        var changes = self
        changes.isRemote = true
        return changes
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { !affectsAllTables && tableChanges.values.allSatisfy(\.isEmpty) }

    /// The names of the tables with changes, ASCII letters lowercased.
    public var tables: Set<String> { Set(tableChanges.keys) }

    /// What changed in `table`: that table's row changes, wholly changed if every table is.
    public func changes(in table: String) -> TableChanges {
        var changes = tableChanges[table.sqliteIdentifierFolded] ?? TableChanges()
        if affectsAllTables { changes.isWhollyChanged = true }
        return changes
    }

    /// Whether `table` may have changed.
    public func touches(_ table: String) -> Bool {
        affectsAllTables || !(tableChanges[table.sqliteIdentifierFolded]?.isEmpty ?? true)
    }

    /// Whether any of `tables` may have changed; `nil` means any table.
    public func touches(anyOf tables: Set<String>?) -> Bool {
        guard let tables else { return !isEmpty }
        return tables.contains { touches($0) }
    }

    /// Whether the object may have changed: inserted, updated, deleted, or in a wholly changed table.
    public func contains(_ id: ObjectID) -> Bool {
        let changes = changes(in: id.table)
        return changes.isWhollyChanged || changes.inserted.contains(id.rowID)
            || changes.updated.contains(id.rowID) || changes.deleted.contains(id.rowID)
    }

    /// Appends the changes of a later transaction, as if both were one (remote only when both are).
    public mutating func formUnion(_ later: StoreChanges) {
        affectsAllTables = affectsAllTables || later.affectsAllTables
        isRemote = isRemote && later.isRemote
        for (table, changes) in later.tableChanges {
            tableChanges[table, default: TableChanges()].append(changes)
        }
    }

    public var description: String {
        if affectsAllTables { return "StoreChanges(all tables\(isExternal ? ", external" : ""))" }
        let parts = tableChanges.keys.sorted().map { "\($0): \(tableChanges[$0] ?? TableChanges())" }
        return "StoreChanges(\(parts.joined(separator: "; "))\(isRemote ? ", remote" : ""))"
    }
}
