import CSQLite
import Foundation

extension Database {
    /// Registers a Swift collation with SQLite on this connection (`sqlite3_create_collation_v2`),
    /// so `COLLATE name` in SQL calls `collation.comparison`. Built-in collations (no comparison)
    /// need no registration and are ignored. Stores do this on every connection for
    /// `StoreConfiguration.collations`.
    public func register(_ collation: Collation) throws {
        guard let comparison = collation.comparison else { return }
        let box = Unmanaged.passRetained(CollationBox(comparison))
        let code = sqlite3_create_collation_v2(
            handle, collation.name, SQLITE_UTF8, box.toOpaque(),
            { context, leftCount, left, rightCount, right in
                guard let context else { return 0 }
                let comparison = Unmanaged<CollationBox>.fromOpaque(context).takeUnretainedValue().comparison
                let lhs = String(decoding: UnsafeRawBufferPointer(start: left, count: Int(leftCount)), as: UTF8.self)
                let rhs = String(decoding: UnsafeRawBufferPointer(start: right, count: Int(rightCount)), as: UTF8.self)
                return Int32(comparison(lhs, rhs).rawValue)
            },
            { context in
                if let context { Unmanaged<CollationBox>.fromOpaque(context).release() }
            })
        // SQLite does not call the destructor when the registration fails.
        if code != SQLITE_OK { box.release() }
        try check(code, sql: nil)
    }

    /// The collation `column` of `table` is declared with (`BINARY` when none is declared),
    /// from `sqlite3_table_column_metadata`; `nil` when the table has no such column.
    public func declaredCollation(table: String, column: String) -> String? {
        columnMetadata(table: table, column: column).map { $0.collation ?? "BINARY" }
    }

    /// Whether `column` of `table` is declared `NOT NULL` (`sqlite3_table_column_metadata`):
    /// no row holds NULL there. `false` when the table has no such column.
    package func declaresNotNull(table: String, column: String) -> Bool {
        columnMetadata(table: table, column: column)?.notNull ?? false
    }

    private func columnMetadata(table: String, column: String) -> (collation: String?, notNull: Bool)? {
        var dataType: UnsafePointer<CChar>?
        var collation: UnsafePointer<CChar>?
        var notNull: Int32 = 0
        var primaryKey: Int32 = 0
        var autoincrement: Int32 = 0
        let code = sqlite3_table_column_metadata(
            handle, "main", table, column, &dataType, &collation,
            &notNull, &primaryKey, &autoincrement)
        guard code == SQLITE_OK else { return nil }
        return (collation.map { String(cString: $0) }, notNull != 0)
    }
}

/// Keeps a collation's Swift comparison alive for as long as SQLite holds it.
private final class CollationBox {
    let comparison: @Sendable (String, String) -> ComparisonResult
    init(_ comparison: @escaping @Sendable (String, String) -> ComparisonResult) { self.comparison = comparison }
}
