/// The tables that `Database.requireRowIDTable` found to be rowid tables, kept while the schema
/// stays the same: the check runs before every model fetch and write, the query behind it once
/// per table and schema.
///
/// The schema is identified by a stamp that changes whenever the schema may have changed: which
/// stamp depends on the connection (see `Database.requireRowIDTable`); each cache takes one kind.
final class RowIDTableCache {
    private var stamp: Int64?
    private var tables: Set<String> = []
    /// The table asked for last: repeated writes of one model skip hashing its name.
    private var lastTable: String?

    /// Whether `table` was found to be a rowid table under the schema `stamp`; a new stamp forgets every table.
    func isKnownRowIDTable(_ table: String, stamp: Int64) -> Bool {
        guard stamp == self.stamp else {
            self.stamp = stamp
            tables.removeAll()
            lastTable = nil
            return false
        }
        if table == lastTable { return true }
        guard tables.contains(table) else { return false }
        lastTable = table
        return true
    }

    /// Remembers that `table` is a rowid table under the current stamp.
    func remember(_ table: String) {
        tables.insert(table)
        lastTable = table
    }

    /// Forgets every table, before the connection closes.
    func removeAll() {
        stamp = nil
        tables.removeAll()
        lastTable = nil
    }
}
