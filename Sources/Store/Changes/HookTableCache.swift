import Foundation

/// The table that SQLite names in a row event, resolved once rather than for every row: a
/// bulk write names the same table row after row, and building its name (and asking whether
/// it is `WITHOUT ROWID`) costs more than the rest of the event.
///
/// The last name is kept as a copy of its bytes and compared with `strcmp`, not by pointer:
/// after a schema change SQLite may free a table's name and reuse the memory for another one.
struct HookTableCache {
    /// What capture needs to know of an event's table.
    struct Table {
        /// The ASCII-folded name (`sqliteIdentifierFolded`), `nil` for SQLite's internal tables (never published).
        let name: String?
        /// Whether the table is `WITHOUT ROWID`, whose rowids mean nothing.
        let isWithoutRowID: Bool
    }

    private var lastBytes: ContiguousArray<CChar> = []
    private var last: Table?

    /// The table named `pointer`, from `resolve` (given its name) when it is not the last one.
    mutating func table(named pointer: UnsafePointer<CChar>, resolve: (String) -> Table) -> Table {
        if let last, lastBytes.withUnsafeBufferPointer({ strcmp($0.baseAddress!, pointer) }) == 0 { return last }
        let name = String(cString: pointer)
        let table = resolve(name)
        lastBytes = ContiguousArray(name.utf8CString)
        last = table
        return table
    }

    /// Forgets the last table: what `resolve` answers may have changed (the schema facts were reloaded).
    mutating func forget() { last = nil }
}
