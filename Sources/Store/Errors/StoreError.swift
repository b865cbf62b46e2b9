import CSQLite

/// An error from SQLite or from the store itself.
///
/// Every failure in the library is a `StoreError`: it carries SQLite's primary and
/// extended result codes, SQLite's (or the library's) message, and the SQL that
/// failed, without its bound values. Errors raised by the library itself use the
/// result code that fits best (`SQLITE_MISUSE` for API misuse, `SQLITE_MISMATCH`
/// for a row that does not decode, `SQLITE_RANGE` for a bad column index, …).
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The primary result code (`SQLITE_CONSTRAINT`, `SQLITE_BUSY`, …).
    public var code: ResultCode
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, …); equals the primary code's raw value when SQLite gave none.
    public var extendedCode: Int32
    /// A human-readable explanation.
    public var message: String
    /// The SQL that failed, if any; bound values are never included.
    public var sql: String?

    /// Creates an error from its parts.
    public init(code: ResultCode, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
        self.code = code
        self.extendedCode = extendedCode ?? code.rawValue
        self.message = message
        self.sql = sql
    }

    /// Creates an error from a result code returned by the SQLite C API.
    init(resultCode: Int32, connection: OpaquePointer?, sql: String? = nil) {
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? resultCode
        let message =
            connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(resultCode))
        self.init(code: ResultCode(rawValue: resultCode & 0xFF), extendedCode: extended, message: message, sql: sql)
    }

    public var description: String {
        var text = "SQLite error \(code.rawValue)"
        if extendedCode != code.rawValue { text += " (extended \(extendedCode))" }
        text += ": \(message)"
        if let sql { text += " — in \(sql)" }
        return text
    }

    /// A misuse of the library's API (wrong thread of control, reentrancy, invalid argument).
    package static func misuse(_ message: String, sql: String? = nil) -> StoreError {
        StoreError(code: .misuse, message: message, sql: sql)
    }

    /// A value or row that does not convert to the requested Swift type.
    package static func mismatch(_ message: String, sql: String? = nil) -> StoreError {
        StoreError(code: .mismatch, message: message, sql: sql)
    }
}
