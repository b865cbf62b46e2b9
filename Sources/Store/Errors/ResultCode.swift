import CSQLite

/// A primary SQLite result code, such as `.constraint` or `.busy`.
///
/// See <https://www.sqlite.org/rescode.html>. The named constants cover the codes
/// callers commonly handle; any other code is representable through `init(rawValue:)`.
public struct ResultCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The numeric primary result code.
    public var rawValue: Int32

    /// Wraps a numeric primary result code.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `SQLITE_ERROR`: a generic error, such as SQL that does not parse or names an unknown table.
    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    /// `SQLITE_INTERNAL`.
    public static let `internal` = ResultCode(rawValue: SQLITE_INTERNAL)
    /// `SQLITE_ABORT`: an operation was aborted, e.g. a statement rolled back.
    public static let abort = ResultCode(rawValue: SQLITE_ABORT)
    /// `SQLITE_BUSY`: the database file is locked by another connection.
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    /// `SQLITE_LOCKED`: a conflict within the same connection or shared cache.
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    /// `SQLITE_READONLY`: an attempt to write to a read-only database.
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    /// `SQLITE_INTERRUPT`: the operation was interrupted, e.g. by task cancellation.
    public static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
    /// `SQLITE_IOERR`: a disk I/O error.
    public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    /// `SQLITE_CORRUPT`: the database file is malformed.
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    /// `SQLITE_CANTOPEN`: the file could not be opened.
    public static let cantOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    /// `SQLITE_CONSTRAINT`: a constraint (unique, not null, check, foreign key) was violated.
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    /// `SQLITE_MISMATCH`: a value does not have the expected type.
    public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    /// `SQLITE_MISUSE`: the library was used incorrectly.
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    /// `SQLITE_RANGE`: a parameter or column index is out of range.
    public static let range = ResultCode(rawValue: SQLITE_RANGE)
    /// `SQLITE_NOTFOUND`: used by the library when a row to update does not exist.
    public static let notFound = ResultCode(rawValue: SQLITE_NOTFOUND)
    /// `SQLITE_NOTADB`: the file is not a database.
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)

    public var description: String { String(cString: sqlite3_errstr(rawValue)) }
}
