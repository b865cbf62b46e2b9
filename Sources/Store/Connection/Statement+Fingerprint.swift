import CSQLite

extension Statement {
    /// A 64-bit hash of the current row's values in `columns`, exact to the byte and to the
    /// storage class (`1`, `1.0` and `'1'` differ; so do NFC and NFD texts), read without
    /// making Swift values. Stable within one process only (`Hasher` is seeded per process).
    ///
    /// The hasher takes every column's storage class and number (or byte count) as one run of
    /// words, then the texts' and blobs' bytes, in column order (the counts say where each
    /// ends): three or four calls for a row of a few columns instead of two or three per
    /// column, each with its own buffering.
    package func fingerprint(columns: Range<Int>) -> UInt64 {
        var hasher = Hasher()
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * columns.count) { words in
            for (slot, index) in columns.enumerated() {
                let column = Int32(index)
                let type = sqlite3_column_type(handle, column)
                words[2 * slot] = UInt64(type)
                words[2 * slot + 1] =
                    switch type {
                    case SQLITE_INTEGER: UInt64(bitPattern: sqlite3_column_int64(handle, column))
                    case SQLITE_FLOAT: sqlite3_column_double(handle, column).bitPattern
                    case SQLITE_TEXT, SQLITE_BLOB: UInt64(bytes(of: column, type: type).count)
                    default: 0
                    }
            }
            hasher.combine(bytes: UnsafeRawBufferPointer(words))
            for (slot, index) in columns.enumerated() {
                let type = Int32(words[2 * slot])
                if type == SQLITE_TEXT || type == SQLITE_BLOB { hasher.combine(bytes: bytes(of: Int32(index), type: type)) }
            }
        }
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// The bytes of a TEXT or BLOB column of the current row (the text's UTF-8).
    private func bytes(of column: Int32, type: Int32) -> UnsafeRawBufferPointer {
        let start = type == SQLITE_TEXT ? UnsafeRawPointer(sqlite3_column_text(handle, column)) : sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : count)
    }
}
