import CSQLiteBench

/// A compiled statement, finalized when released; it keeps its connection open.
public final class PreparedStatement {
    /// The underlying `sqlite3_stmt *`, bound and stepped with the C API by its user.
    public let handle: OpaquePointer
    private let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Throws the connection's current error unless `code` reports success.
    public func check(_ code: Int32) throws {
        try connection.check(code)
    }
}
