import CSQLiteBench

extension PreparedStatement {
    /// Binds the columns of `item` other than `id` to parameters 1...5 of `ItemSQL.insert`.
    public func bindInsertArguments(of item: Item) {
        sqlite3_bind_text(handle, 1, item.title, -1, sqliteTransient)
        sqlite3_bind_double(handle, 2, item.score)
        sqlite3_bind_double(handle, 3, item.createdAt)
        sqlite3_bind_int64(handle, 4, item.flag ? 1 : 0)
        sqlite3_bind_text(handle, 5, item.category, -1, sqliteTransient)
    }

    /// Reads the current row of a statement that selects the columns of `ItemSQL`'s queries.
    public func readItem() throws -> Item {
        Item(
            id: sqlite3_column_int64(handle, 0),
            title: try text(at: 1),
            score: sqlite3_column_double(handle, 2),
            createdAt: sqlite3_column_double(handle, 3),
            flag: sqlite3_column_int64(handle, 4) != 0,
            category: try text(at: 5))
    }

    /// Steps through all rows, reading each as an item.
    public func readAllItems() throws -> [Item] {
        var items: [Item] = []
        while true {
            let code = sqlite3_step(handle)
            guard code == SQLITE_ROW else {
                try check(code)
                break
            }
            items.append(try readItem())
        }
        sqlite3_reset(handle)
        return items
    }

    /// Steps a statement that returns no rows, then resets it for reuse.
    public func run() throws {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        try check(code)
    }

    private func text(at column: Int32) throws -> String {
        guard let bytes = sqlite3_column_text(handle, column) else {
            throw SQLiteError(code: SQLITE_MISMATCH, message: "NULL text in column \(column)")
        }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}

/// Tells SQLite to copy bound text before the bind call returns.
public let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
