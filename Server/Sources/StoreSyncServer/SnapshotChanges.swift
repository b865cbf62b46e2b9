import PostgresNIO
import SQLiteStoreSyncProtocol

/// The snapshot query's answer: a page's changes column by column, one element per change,
/// grouped by (table, key) in the order of their bytes, each text as PostgreSQL sent its bytes;
/// and whether rows follow them.
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
    /// Whether more rows follow the page's: the page then says where the next one starts.
    private(set) var moreFollow = false

    /// How many changes the page holds.
    var count: Int { tables.count }

    /// Where the page's last row is (the next page starts after it); `nil` for no row.
    var lastRow: SyncSnapshotPosition? { Self.lastRow(tables: tables, keys: keys) }

    /// Where the last row of an answer's `tables` and `keys` is; `nil` for no row, or arrays
    /// of different lengths.
    static func lastRow(tables: PostgresBinaryArray, keys: PostgresBinaryArray) -> SyncSnapshotPosition? {
        guard tables.count > 0, keys.count == tables.count else { return nil }
        let last = tables.count - 1
        return SyncSnapshotPosition(
            table: String(decoding: tables.bytes(last), as: UTF8.self), key: String(decoding: keys.bytes(last), as: UTF8.self))
    }

    /// These changes, with `moreFollow` set as given.
    func followed(_ moreFollow: Bool) -> SnapshotChanges {
        var changes = self
        changes.moreFollow = moreFollow
        return changes
    }

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
