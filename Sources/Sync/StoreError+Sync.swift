import SQLiteStoreCore

extension StoreError {
    /// A synced table the store cannot sync as configured (a rowid key, a missing table).
    static func syncTableRefused(_ table: String, _ reason: String) -> StoreError {
        StoreError(code: .misuse, message: "sync: table \"\(table)\" cannot be synced: \(reason)")
    }

    /// A batch made under another schema version than the store's.
    static func syncSchemaMismatch(batch: Int64, store: Int64) -> StoreError {
        StoreError(
            code: .mismatch,
            message: "sync: the batch was made under schema version \(batch), this store has version \(store); "
                + "migrate both to the same version first (nothing was applied)")
    }

    /// A change that names what this store does not sync.
    static func syncChangeRefused(_ reason: String) -> StoreError {
        StoreError(code: .mismatch, message: "sync: \(reason)")
    }
}
