import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// What a client checks of a server's answer before it stores anything of it: a server caps
/// its pages, and the client holds it to the cap it asked for, so that a faulty or hostile
/// server cannot make it store more than it asked for in one transaction, or loop forever.
extension SyncSnapshotPage {
    /// The page, when it holds at most `limit` rows, each once, at the snapshot's `cursor`
    /// (`nil` on the first page), and rows when it says that more follow.
    ///
    /// - Throws: ``SyncServerError`` with reason `.unexpectedResponse` otherwise.
    func checked(limit: Int, cursor: Int64?) throws -> SyncSnapshotPage {
        guard rows.count <= limit else { throw Self.unexpected("the page holds \(rows.count) rows, more than the \(limit) asked for") }
        if let cursor, self.cursor != cursor {
            throw Self.unexpected("the page is at cursor \(self.cursor), not at its snapshot's \(cursor)")
        }
        if next != nil && rows.isEmpty { throw Self.unexpected("the page holds no rows but says that more follow") }
        guard !rowsAscend() else { return self }
        var seen = Set<SyncRowIdentity<SyncWireValue>>()
        for row in rows where !seen.insert(SyncRowIdentity(table: row.table.sqliteIdentifierFolded, key: row.key)).inserted {
            throw Self.unexpected("the page holds the row \(row.key) of \"\(row.table)\" twice")
        }
        return self
    }

    /// Whether each row comes after the one before it, by its table's name (ASCII case folded)
    /// and its key, texts or blobs, by their bytes, as a server sends them: then no row comes
    /// twice, which is found without hashing every row.
    private func rowsAscend() -> Bool {
        var previous: (table: String, folded: String, key: SyncWireValue)?
        for row in rows {
            let folded =
                previous.flatMap { row.table.hasSameUTF8(as: $0.table) ? $0.folded : nil } ?? row.table.sqliteIdentifierFolded
            if let previous, !Self.precedes((previous.folded, previous.key), (folded, row.key)) { return false }
            previous = (row.table, folded, row.key)
        }
        return true
    }

    private static func precedes(_ a: (table: String, key: SyncWireValue), _ b: (table: String, key: SyncWireValue)) -> Bool {
        guard a.table.hasSameUTF8(as: b.table) else { return a.table.utf8Precedes(b.table) }
        switch (a.key, b.key) {
        case (.text(let x), .text(let y)): return x.utf8Precedes(y)
        case (.text, .blob): return true
        case (.blob(let x), .blob(let y)): return x.lexicographicallyPrecedes(y)
        default: return false
        }
    }

    private static func unexpected(_ message: String) -> SyncServerError {
        SyncServerError(reason: .unexpectedResponse, message: "a snapshot page that is not the sync protocol's: \(message)")
    }
}

extension SyncPullResponse {
    /// The answer, when it holds at most `limit` changes and its cursor is not behind `since`
    /// (ahead of it when it says that more follow).
    ///
    /// - Throws: ``SyncServerError`` with reason `.unexpectedResponse` otherwise.
    func checked(limit: Int, since: Int64) throws -> SyncPullResponse {
        guard changes.count <= limit else {
            throw Self.unexpected("it holds \(changes.count) changes, more than the \(limit) asked for")
        }
        guard cursor > since || (cursor == since && !more) else {
            throw Self.unexpected("its cursor \(cursor) does not move on from \(since)\(more ? " while more follow" : "")")
        }
        return self
    }

    private static func unexpected(_ message: String) -> SyncServerError {
        SyncServerError(reason: .unexpectedResponse, message: "a pull answer that is not the sync protocol's: \(message)")
    }
}
