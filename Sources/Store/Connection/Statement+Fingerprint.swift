import CSQLite

extension Statement {
    /// A 64-bit hash of the current row's values in `columns`, exact to the byte and to the
    /// storage class (`1`, `1.0` and `'1'` differ; so do NFC and NFD texts), read without
    /// making Swift values. Stable within one process only (`Hasher` is seeded per process).
    package func fingerprint(columns: Range<Int>) -> UInt64 {
        var hasher = Hasher()
        for index in columns {
            let column = Int32(index)
            let type = sqlite3_column_type(handle, column)
            hasher.combine(type)
            switch type {
            case SQLITE_INTEGER: hasher.combine(sqlite3_column_int64(handle, column))
            case SQLITE_FLOAT: hasher.combine(sqlite3_column_double(handle, column).bitPattern)
            case SQLITE_TEXT, SQLITE_BLOB:
                let start =
                    type == SQLITE_TEXT ? UnsafeRawPointer(sqlite3_column_text(handle, column)) : sqlite3_column_blob(handle, column)
                let count = Int(sqlite3_column_bytes(handle, column))
                hasher.combine(count)
                hasher.combine(bytes: UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : count))
            default: break
            }
        }
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }
}
