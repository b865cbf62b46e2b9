import Foundation

/// A value as SQLite's C functions take it (`sqlite3_bind_*`, `sqlite3_result_*`), from
/// ``DatabaseValue/withSQLiteArgument(_:)``: text and bytes as pointers with their lengths,
/// valid only during that call.
enum SQLiteArgument {
    case null
    case integer(Int64)
    case real(Double)
    /// UTF-8 and its length in bytes, so that a NUL inside it is kept. Empty text points at an
    /// empty C string: a NULL pointer would make it NULL.
    case text(UnsafePointer<CChar>, UInt64)
    /// Bytes and their count, never empty.
    case blob(UnsafeRawPointer, UInt64)
    /// Empty data, a zero-length blob: a NULL pointer would make it NULL.
    case emptyBlob
}

extension DatabaseValue {
    /// Why a NaN is refused: SQLite would store it as NULL.
    static let notANumberMessage = "NaN cannot be stored: SQLite would turn it into NULL"

    /// Calls `body` with the value as SQLite's C functions take it and returns what it returns;
    /// `nil` without calling it for NaN.
    @inline(__always)
    func withSQLiteArgument(_ body: (SQLiteArgument) -> Int32) -> Int32? {
        switch self {
        case .null: return body(.null)
        case .integer(let number): return body(.integer(number))
        case .real(let number): return number.isNaN ? nil : body(.real(number))
        case .text(let text):
            let withBytes = { (bytes: UnsafeBufferPointer<UInt8>) in
                guard let start = bytes.baseAddress, !bytes.isEmpty else { return body(.text(emptyCString, 0)) }
                return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) { body(.text($0, UInt64(bytes.count))) }
            }
            // A native string's bytes in place; any other's copied into one first.
            if let code = text.utf8.withContiguousStorageIfAvailable(withBytes) { return code }
            var copy = text
            return copy.withUTF8(withBytes)
        case .blob(let data):
            return data.withUnsafeBytes { bytes in
                guard let start = bytes.baseAddress, !bytes.isEmpty else { return body(.emptyBlob) }
                return body(.blob(start, UInt64(bytes.count)))
            }
        }
    }
}

private let emptyText: StaticString = ""
private var emptyCString: UnsafePointer<CChar> { UnsafeRawPointer(emptyText.utf8Start).assumingMemoryBound(to: CChar.self) }
