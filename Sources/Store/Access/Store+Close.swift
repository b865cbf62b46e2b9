extension Store {
    /// Closes the store's connections now, instead of when the store is released.
    ///
    /// Waits for the reads and writes already running, then closes every connection. In WAL
    /// mode, the last connection to a file that closes checkpoints it and removes its `-wal`
    /// and `-shm` files, so call `close()` when that must have happened at a known time:
    /// before the process exits, before the file is moved, copied or deleted. Reads and
    /// writes started afterwards throw `SQLITE_MISUSE`; observations receive no more changes.
    /// Closing again does nothing.
    ///
    /// ```swift
    /// let store = try Store(path: path)
    /// try store.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
    /// try store.close()
    /// try FileManager.default.removeItem(atPath: path)  // no -wal or -shm is left beside it
    /// ```
    ///
    /// Throws `SQLITE_MISUSE` when called inside a read or write of this store, which could
    /// never finish waiting for itself.
    public func close() throws {
        if currentRole != nil { throw StoreError.misuse("close called inside a read or write of the same store") }
        externalChangeMonitor?.stop()
        for reader in readers?.readers ?? [] { reader.close() }
        checkpointer?.close()
        writer.close()
    }
}
