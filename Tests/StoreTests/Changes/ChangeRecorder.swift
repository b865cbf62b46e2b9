import SQLiteStoreCore

/// Reads a store's published changes one by one, in commit order.
///
/// Every transaction the tests commit also bumps the `tick` table, so each commit yields
/// exactly one `StoreChanges`, and a test can tell "nothing was published" from "not yet".
final class ChangeRecorder {
    private var iterator: StoreChangeSequence.AsyncIterator
    let store: Store

    init(store: Store, tables: Set<String>? = nil) throws {
        self.store = store
        try store.write { db in
            try db.execute(
                script: "CREATE TABLE IF NOT EXISTS tick(id INTEGER PRIMARY KEY, n INTEGER); INSERT OR IGNORE INTO tick VALUES(1, 0);")
        }
        iterator = store.changes(in: tables.map { $0.union(["tick"]) }).makeAsyncIterator()
    }

    /// Commits `body` plus a tick, and returns what was published for it, minus the tick.
    func commit(_ body: @escaping @Sendable (Database) throws -> Void) async throws -> StoreChanges {
        try await store.write { db in
            try body(db)
            try db.execute(sql: "UPDATE tick SET n = n + 1 WHERE id = 1")
        }
        return try await next()
    }

    /// The next published changes, without the tick table.
    func next() async throws -> StoreChanges {
        guard let changes = await iterator.next() else { throw CancellationError() }
        var tables = changes.tableChanges
        tables["tick"] = nil
        return StoreChanges(tableChanges: tables, affectsAllTables: changes.affectsAllTables, isExternal: changes.isExternal)
    }
}
