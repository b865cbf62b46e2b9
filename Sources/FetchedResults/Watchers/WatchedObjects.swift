import SQLiteStoreCore

/// The objects a watcher watches in one table, and which of them a transaction touched.
struct WatchedObjects: Sendable {
    /// The watched objects by rowid, as the caller identified them.
    private(set) var byRowID: [Int64: ObjectID] = [:]
    /// The table, ASCII-folded as in `StoreChanges`.
    let table: String

    init(table: String) { self.table = table.sqliteIdentifierFolded }

    var ids: Set<ObjectID> { Set(byRowID.values) }

    /// Adds the IDs of this watcher's table; returns those of other tables, which it cannot watch.
    mutating func insert(_ ids: some Sequence<ObjectID>) -> [ObjectID] {
        var rejected: [ObjectID] = []
        for id in ids {
            if id.table.matchesSQLiteIdentifier(table) { byRowID[id.rowID] = id } else { rejected.append(id) }
        }
        return rejected
    }

    mutating func remove(_ ids: some Sequence<ObjectID>) {
        for id in ids where id.table.matchesSQLiteIdentifier(table) { byRowID.removeValue(forKey: id.rowID) }
    }

    /// The watched objects a transaction touched.
    struct Touched: Sendable {
        /// Objects inserted or updated, to re-read; every watched object when the table changed wholly
        /// (those gone are then found deleted by the read).
        var written: [Int64: ObjectID] = [:]
        /// Objects deleted.
        var deleted: [Int64: ObjectID] = [:]

        var isEmpty: Bool { written.isEmpty && deleted.isEmpty }
    }

    /// The watched objects `changes` touched: one lookup per changed row or per watched
    /// object, whichever is fewer.
    func touched(by changes: StoreChanges) -> Touched {
        guard !byRowID.isEmpty else { return Touched() }
        let rows = changes.changes(in: table)
        if rows.isWhollyChanged { return Touched(written: byRowID) }
        var written = watched(among: rows.updated)
        written.merge(watched(among: rows.inserted)) { first, _ in first }
        return Touched(written: written, deleted: watched(among: rows.deleted))
    }

    private func watched(among rowIDs: Set<Int64>) -> [Int64: ObjectID] {
        var found: [Int64: ObjectID] = [:]
        if rowIDs.count <= byRowID.count {
            for rowID in rowIDs { if let id = byRowID[rowID] { found[rowID] = id } }
        } else {
            for (rowID, id) in byRowID where rowIDs.contains(rowID) { found[rowID] = id }
        }
        return found
    }
}
