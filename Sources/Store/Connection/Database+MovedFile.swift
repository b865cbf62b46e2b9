import CSQLite

extension Database {
    /// SQLite's extended code for a database file moved since it was opened
    /// (`SQLITE_READONLY_DBMOVED`, a C macro Swift does not import).
    static let movedFileCode = SQLITE_READONLY | (4 << 8)

    /// Throws when the file this connection opened is no longer the file at its path: deleted,
    /// or replaced (renamed over, or deleted and created again).
    ///
    /// An open connection keeps reading and writing the file it opened, which nobody else will
    /// open again, and knows nothing of the file now at the path. SQLite tells
    /// (`SQLITE_FCNTL_HAS_MOVED`): it compares the inode now at the path with the inode of the
    /// file it holds open. A VFS that cannot tell (an in-memory database) passes.
    func requireFileInPlace() throws {
        var hasMoved: Int32 = 0
        let code = sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &hasMoved)
        guard code == SQLITE_OK, hasMoved != 0 else { return }
        throw StoreError(
            code: .readOnly, extendedCode: Self.movedFileCode,
            message: "the database file \(path) was deleted or replaced since the store opened it; "
                + "the store still uses the file it opened: close it and open the path again")
    }
}
