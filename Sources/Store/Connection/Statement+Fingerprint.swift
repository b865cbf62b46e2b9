import CSQLite

extension Statement {
    /// A 64-bit hash of the current row's values in `columns`, exact to the byte and to the
    /// storage class (`1`, `1.0` and `'1'` differ; so do NFC and NFD texts), read without
    /// making Swift values. Stable within one process only (`RowFingerprint` is seeded per
    /// process).
    ///
    /// Every column's storage class and number (or byte count) go in as words, then the
    /// texts' and blobs' bytes, in column order (the counts say where each ends). Each column
    /// is read once: the texts' and blobs' bytes are kept from the first pass (SQLite keeps
    /// them until the next step), which halves the calls into SQLite of reading an index.
    package func fingerprint(columns: Range<Int>) -> UInt64 {
        withUnsafeTemporaryAllocation(of: UnsafeRawBufferPointer.self, capacity: columns.count) { texts in
            var fingerprint = RowFingerprint()
            var textCount = 0
            for index in columns {
                let column = Int32(index)
                let type = sqlite3_column_type(handle, column)
                fingerprint.combine(UInt64(type))
                switch type {
                case SQLITE_INTEGER: fingerprint.combine(UInt64(bitPattern: sqlite3_column_int64(handle, column)))
                case SQLITE_FLOAT: fingerprint.combine(sqlite3_column_double(handle, column).bitPattern)
                case SQLITE_TEXT, SQLITE_BLOB:
                    let bytes = bytes(of: column, type: type)
                    fingerprint.combine(UInt64(bytes.count))
                    texts.initializeElement(at: textCount, to: bytes)
                    textCount += 1
                default: break
                }
            }
            for text in texts[..<textCount] { fingerprint.combine(bytes: text) }
            return fingerprint.value
        }
    }

    /// The bytes of a TEXT or BLOB column of the current row (the text's UTF-8).
    private func bytes(of column: Int32, type: Int32) -> UnsafeRawBufferPointer {
        let start = type == SQLITE_TEXT ? UnsafeRawPointer(sqlite3_column_text(handle, column)) : sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : count)
    }
}
