import CSQLite
import SQLiteStoreCore

/// A plain SQLite connection outside any `Store`, standing for another process on the same file.
final class RawConnection {
    private let handle: OpaquePointer

    init(path: String, create: Bool = false) throws {
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0), nil)
        guard code == SQLITE_OK, let connection else {
            sqlite3_close_v2(connection)
            throw StoreError(code: ResultCode(rawValue: code), message: "cannot open \(path) for the test")
        }
        handle = connection
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs `sql`, throwing SQLite's message on failure.
    func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw StoreError(code: ResultCode(rawValue: code & 0xFF), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
    }
}
