import CSQLite
import Foundation

/// A value type read straight from a result column and bound straight to a parameter with
/// the C API, with no `DatabaseValue` in between: the fast path of `StoreRow` and `StoreBindings`.
///
/// The library's own value types conform: `Bool`, the integer types, `Double`, `Float`,
/// `String`, `Data`, `Date` and `UUID`. Their implementations are `@inlinable`, so generated
/// and hand-written model code compiles down to the C calls.
///
/// They read a column through `sqlite3_column_value` once, then its type and contents from
/// that value: each `sqlite3_column_*` call locates the column again, so this costs one such
/// call per column instead of two or three. The value is "unprotected" (read without the
/// connection's mutex), which is safe here: the store opens its connections without mutexes
/// (`SQLITE_OPEN_NOMUTEX`) and uses each from one queue at a time, and the value is read at once,
/// before the statement steps again.
public protocol StatementValue: DatabaseValueConvertible, Codable {
    /// Column `index` of the current row when it holds the type's own storage class, else `nil`
    /// (then `fromDatabaseValue` converts, as for any stored value).
    static func read(column index: Int32, of statement: OpaquePointer) -> Self?

    /// Binds the value to parameter `parameter` (1-based) of the statement behind `bindings`.
    func bind(to bindings: StoreBindings, parameter: Int32) throws
}

extension Int64: StatementValue {
    @inlinable
    public static func read(column index: Int32, of statement: OpaquePointer) -> Int64? {
        let value = sqlite3_column_value(statement, index)
        return sqlite3_value_type(value) == SQLITE_INTEGER ? sqlite3_value_int64(value) : nil
    }

    @inlinable
    public func bind(to bindings: StoreBindings, parameter: Int32) throws {
        try bindings.check(sqlite3_bind_int64(bindings.handle, parameter, self), parameter: parameter)
    }
}

extension Bool: StatementValue {
    @inlinable
    public static func read(column index: Int32, of statement: OpaquePointer) -> Bool? {
        Int64.read(column: index, of: statement).map { $0 != 0 }
    }

    @inlinable
    public func bind(to bindings: StoreBindings, parameter: Int32) throws {
        try Int64(self ? 1 : 0).bind(to: bindings, parameter: parameter)
    }
}

/// The integer types other than `Int64`: an INTEGER that fits reads fast; a value beyond
/// `Int64.max` (only `UInt`, `UInt64`) is bound as REAL, as `databaseValue` stores it.
extension StatementValue where Self: DatabaseInteger {
    @inlinable
    public static func read(column index: Int32, of statement: OpaquePointer) -> Self? {
        Int64.read(column: index, of: statement).flatMap(Self.init(exactly:))
    }

    @inlinable
    public func bind(to bindings: StoreBindings, parameter: Int32) throws {
        guard let integer = Int64(exactly: self) else {
            return try Double(self).bind(to: bindings, parameter: parameter)
        }
        try integer.bind(to: bindings, parameter: parameter)
    }
}

extension Int: StatementValue {}
extension Int8: StatementValue {}
extension Int16: StatementValue {}
extension Int32: StatementValue {}
extension UInt: StatementValue {}
extension UInt8: StatementValue {}
extension UInt16: StatementValue {}
extension UInt32: StatementValue {}
extension UInt64: StatementValue {}

extension Double: StatementValue {
    @inlinable
    public static func read(column index: Int32, of statement: OpaquePointer) -> Double? {
        let value = sqlite3_column_value(statement, index)
        return sqlite3_value_type(value) == SQLITE_FLOAT ? sqlite3_value_double(value) : nil
    }

    /// Throws for NaN, which SQLite would silently store as NULL.
    @inlinable
    public func bind(to bindings: StoreBindings, parameter: Int32) throws {
        guard !isNaN else { throw bindings.notANumber(parameter: parameter) }
        try bindings.check(sqlite3_bind_double(bindings.handle, parameter, self), parameter: parameter)
    }
}

extension Float: StatementValue {
    @inlinable
    public static func read(column index: Int32, of statement: OpaquePointer) -> Float? {
        Double.read(column: index, of: statement).map(Float.init)
    }

    @inlinable
    public func bind(to bindings: StoreBindings, parameter: Int32) throws {
        try Double(self).bind(to: bindings, parameter: parameter)
    }
}

extension Date: StatementValue {
    @inlinable
    public static func read(column index: Int32, of statement: OpaquePointer) -> Date? {
        Double.read(column: index, of: statement).map(Date.init(timeIntervalSince1970:))
    }

    @inlinable
    public func bind(to bindings: StoreBindings, parameter: Int32) throws {
        try timeIntervalSince1970.bind(to: bindings, parameter: parameter)
    }
}

extension String: StatementValue {
    @inlinable
    public static func read(column index: Int32, of statement: OpaquePointer) -> String? {
        let value = sqlite3_column_value(statement, index)
        guard sqlite3_value_type(value) == SQLITE_TEXT else { return nil }
        guard let text = sqlite3_value_text(value) else { return "" }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Binds the text with its byte length, so that a NUL inside it is stored rather than ending it.
    @inlinable
    public func bind(to bindings: StoreBindings, parameter: Int32) throws {
        var text = self
        let code = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                // An empty buffer may have no address, and SQLite binds NULL for a nil pointer.
                guard let start = chars.baseAddress, !chars.isEmpty else {
                    return sqlite3_bind_text64(bindings.handle, parameter, "", 0, StatementValueSupport.transient, UInt8(SQLITE_UTF8))
                }
                return sqlite3_bind_text64(
                    bindings.handle, parameter, start, UInt64(chars.count),
                    StatementValueSupport.transient, UInt8(SQLITE_UTF8))
            }
        }
        try bindings.check(code, parameter: parameter)
    }
}

extension UUID: StatementValue {
    @inlinable
    public static func read(column index: Int32, of statement: OpaquePointer) -> UUID? {
        String.read(column: index, of: statement).flatMap(UUID.init(uuidString:))
    }

    @inlinable
    public func bind(to bindings: StoreBindings, parameter: Int32) throws {
        try uuidString.bind(to: bindings, parameter: parameter)
    }
}

extension Data: StatementValue {
    @inlinable
    public static func read(column index: Int32, of statement: OpaquePointer) -> Data? {
        let value = sqlite3_column_value(statement, index)
        guard sqlite3_value_type(value) == SQLITE_BLOB else { return nil }
        let count = Int(sqlite3_value_bytes(value))
        guard count > 0, let bytes = sqlite3_value_blob(value) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// Binds the bytes; empty data is an empty blob (SQLite would bind NULL for a nil pointer).
    @inlinable
    public func bind(to bindings: StoreBindings, parameter: Int32) throws {
        let code = withUnsafeBytes { bytes in
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(bindings.handle, parameter, 0) }
            return sqlite3_bind_blob64(bindings.handle, parameter, start, UInt64(bytes.count), StatementValueSupport.transient)
        }
        try bindings.check(code, parameter: parameter)
    }
}

/// Constants the inlined binding code needs.
@usableFromInline
enum StatementValueSupport {
    /// `SQLITE_TRANSIENT`: SQLite copies the bytes before the bind call returns.
    @inlinable
    static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }
}
