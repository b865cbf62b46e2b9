import SQLiteStoreSync

/// What a pull answers a device on one schema version: the stored changes its version syncs,
/// in server order, as changes of its version. A change of a table or column its version does
/// not have is passed over (the cursor moves past it): the device never receives what it does
/// not know. Changes made under a version that cannot sync with the server's newest (stored
/// before a migration that is not additive) end the batch; when they come first, they are
/// answered alone, under their own version, which the device refuses as before.
struct PulledBatch {
    let changes: [StoredChange]
    let schemaVersion: Int64
    let cursor: Int64
    let more: Bool

    init(_ stored: (changes: [StoredChange], more: Bool), since: Int64, for schema: SyncSchema, schemas: SyncSchemaHistory) {
        var kept: [StoredChange] = []
        var cursor = since
        for change in stored.changes {
            guard schemas.schemaSyncingWithNewest(change.schemaVersion) != nil else {
                if cursor == since {
                    // Nothing passed yet: the changes of that older version, alone, as before.
                    let older = stored.changes.prefix { $0.schemaVersion == change.schemaVersion }
                    self.init(
                        changes: Array(older), schemaVersion: change.schemaVersion, cursor: older.last?.serverSequence ?? since,
                        more: older.count < stored.changes.count || stored.more)
                } else {
                    self.init(changes: kept, schemaVersion: schema.version, cursor: cursor, more: true)
                }
                return
            }
            cursor = change.serverSequence
            if schema.refusal(table: change.change.table, column: change.change.column) == nil { kept.append(change) }
        }
        self.init(changes: kept, schemaVersion: schema.version, cursor: cursor, more: stored.more)
    }

    private init(changes: [StoredChange], schemaVersion: Int64, cursor: Int64, more: Bool) {
        self.changes = changes
        self.schemaVersion = schemaVersion
        self.cursor = cursor
        self.more = more
    }
}
