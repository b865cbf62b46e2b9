import PostgresNIO

/// The snapshot query's answer: a page's changes column by column, one element per change,
/// grouped by (table, key) in the order of their bytes, each text as PostgreSQL sent its bytes.
struct SnapshotChanges {
    let tables: PostgresBinaryArray
    let keys: PostgresBinaryArray
    /// A cell's column; empty for a delete (a name no column has: a push that sets one is refused).
    let columns: PostgresBinaryArray
    /// A cell's value as the log stores it, a value's JSON; empty for a delete.
    let values: PostgresBinaryArray
    let devices: PostgresBinaryArray
    let clocks: [Int64]
    let sequences: [Int64]

    /// How many changes the page holds.
    var count: Int { tables.count }

    /// The columns of one answer; columns of different lengths are a ``SnapshotPageError``.
    init(
        tables: PostgresBinaryArray, keys: PostgresBinaryArray, columns: PostgresBinaryArray, values: PostgresBinaryArray,
        devices: PostgresBinaryArray, clocks: [Int64], sequences: [Int64]
    ) throws {
        guard Set([keys.count, columns.count, values.count, devices.count, clocks.count, sequences.count]) == [tables.count] else {
            throw SnapshotPageError("the snapshot query's columns differ in length")
        }
        (self.tables, self.keys, self.columns, self.values, self.devices) = (tables, keys, columns, values, devices)
        (self.clocks, self.sequences) = (clocks, sequences)
    }
}
