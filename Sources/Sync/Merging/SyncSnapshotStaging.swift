import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// A snapshot page checked against the store's synced tables and laid out as tables for
/// ``SyncSnapshotApplier`` to merge: the page's ``rows`` and their ``cells``, both numbered by
/// the row's place in the page (`ri`) and in that order, and, when staged for images, the rows
/// that can be kept whole (``images``) apart from the cells.
struct SyncSnapshotStaging {
    /// `ri, tbl, pk, deleted_clock, deleted_device, columns, won_if_new, complete_if_new, imaged`:
    /// every row of the page, with its delete's stamp or NULLs, how many columns its table syncs,
    /// its marks when the store holds nothing of it (whether it has a cell or a delete, and a
    /// cell of every column), and whether it is in ``images``.
    private(set) var rows = ValuesTable(
        columnNames: ["ri", "tbl", "pk", "deleted_clock", "deleted_device", "columns", "won_if_new", "complete_if_new", "imaged"])
    /// `ri, tbl, pk, col, value, clock, device, link`: the rows' cells, `link` when the column is
    /// a foreign key. Of a column given twice in a row only the cell with the greatest stamp (the
    /// first of equal ones): what merging them one after the other keeps. Not those of the rows
    /// in ``images``.
    private(set) var cells = ValuesTable(columnNames: ["ri", "tbl", "pk", "col", "value", "clock", "device", "link"])
    /// By table name, `pk, c0, c1, …, clock, device, image`: the rows that a store holding
    /// nothing of them keeps whole (see ``SyncStorage``), with their values in the order of the
    /// table's columns, their one stamp and their ``SyncRowImage``. Rows of tables without
    /// foreign keys, not deleted, with a cell of every column, all of one stamp. Empty unless
    /// staged for images.
    private(set) var images: [String: ValuesTable] = [:]
    /// Whether some row of the page is not in ``images``: the cells and deletes of such rows go to the sync tables.
    private(set) var hasRowsOutsideImages = false
    /// By table name, the first and last key of the page's rows, when each table's rows come
    /// in ascending order of their keys, texts or blobs, each key once (as a server sends them);
    /// `nil` otherwise.
    private(set) var keyRanges: [String: (first: DatabaseValue, last: DatabaseValue)]? = [:]
    /// The tables the page touches, by name.
    private(set) var tables: [SyncedTable] = []
    /// The greatest clock among the page's stamps (0 for none).
    private(set) var newest: Int64 = 0
    /// The synced tables the page was checked against and laid out for: a staging made ahead
    /// of the write transaction serves only while the store syncs these same tables.
    let syncedTables: [String: SyncedTable]

    /// - Parameter imaging: whether to set the rows that can be kept whole apart, in ``images``.
    /// - Throws: `StoreError` when the page names a table, a column or a device index this
    ///   store cannot take.
    init(_ page: SyncSnapshotPage, tables synced: [String: SyncedTable], imaging: Bool) throws {
        syncedTables = synced
        rows.reserveCapacity(page.rows.count)
        cells.reserveCapacity(page.rows.count * (synced.values.map(\.columns.count).max() ?? 0))
        var touched: [String: SyncedTable] = [:]
        // The table of the row before, as the page spells it, with its columns in the order of
        // their names' bytes: a page's rows come table by table.
        var current: (spelled: String, table: SyncedTable, columnsByBytes: [Int])?
        for (index, row) in page.rows.enumerated() {
            let (table, columnsByBytes): (SyncedTable, [Int])
            if let current, current.spelled.hasSameUTF8(as: row.table) {
                (table, columnsByBytes) = (current.table, current.columnsByBytes)
            } else {
                guard let found = synced.table(named: row.table) else {
                    throw StoreError.syncChangeRefused("the snapshot names table \"\(row.table)\", which this store does not sync")
                }
                if touched[found.name] == nil { touched[found.name] = found }
                (table, columnsByBytes) = (found, found.columns.indices.sorted { found.columns[$0].utf8Precedes(found.columns[$1]) })
                current = (row.table, table, columnsByBytes)
            }
            let (ri, name, key) = (DatabaseValue.integer(Int64(index)), DatabaseValue.text(table.name), DatabaseValue(row.key))
            extendKeyRange(of: table.name, to: key)
            let columnIndexes = Self.givesEveryColumnOnce(row, in: table, byBytes: columnsByBytes) ? columnsByBytes : nil
            let latest = try columnIndexes.map { _ in row.cells } ?? latestCells(of: row, in: table, page: page)
            var deleted = (clock: DatabaseValue.null, device: DatabaseValue.null)
            if let stamp = row.deleted {
                deleted = (.integer(stamp.hlc), .text(try device(stamp, in: page)))
                newest = max(newest, stamp.hlc)
            }
            let image =
                imaging && row.deleted == nil ? try image(of: latest, columns: columnIndexes, key: key, in: table, page: page) : nil
            rows.append(
                ri, name, key, deleted.clock, deleted.device, .integer(Int64(table.columns.count)),
                .integer(row.deleted != nil || !latest.isEmpty ? 1 : 0), .integer(latest.count == table.columns.count ? 1 : 0),
                .integer(image == nil ? 0 : 1))
            if let image {
                images[table.name, default: ValuesTable(columnNames: Self.imageColumns(of: table))].append(row: image)
                newest = max(newest, latest[0].stamp.hlc)
                continue
            }
            hasRowsOutsideImages = true
            for cell in latest {
                cells.append(
                    ri, name, key, .text(cell.column), DatabaseValue(cell.value), .integer(cell.stamp.hlc),
                    .text(try device(cell.stamp, in: page)),
                    .integer(table.hasLinkColumn(spelled: cell.column) ? 1 : 0))
                newest = max(newest, cell.stamp.hlc)
            }
        }
        self.tables = touched.values.sorted { $0.name < $1.name }
    }

    /// Extends `table`'s key range to `key`, or gives ranges up when `key` does not come after
    /// the range's last key.
    private mutating func extendKeyRange(of table: String, to key: DatabaseValue) {
        guard let range = keyRanges?[table] else {
            if keyRanges != nil, key.isTextOrBlob { keyRanges?[table] = (key, key) } else { keyRanges = nil }
            return
        }
        if range.last.bytesPrecede(key) {
            keyRanges?[table] = (range.first, key)
        } else {
            keyRanges = nil
        }
    }

    /// The names of an images table's columns for `table`.
    static func imageColumns(of table: SyncedTable) -> [String] {
        ["pk"] + table.columns.indices.map { "c\($0)" } + ["clock", "device", "image"]
    }

    /// Whether `row` gives a cell of each column of `table` once, in the order of the columns'
    /// names by bytes (as a server writes them): `byBytes` lists the columns' indices in that order.
    private static func givesEveryColumnOnce(_ row: SyncSnapshotRow, in table: SyncedTable, byBytes: [Int]) -> Bool {
        row.cells.count == byBytes.count && zip(row.cells, byBytes).allSatisfy { $0.column.hasSameUTF8(as: table.columns[$1]) }
    }

    /// The row of ``images`` for a row whose `latest` cells cover every column of `table` with
    /// one stamp, in a table without foreign keys; `nil` for any other row. `columns` gives
    /// each cell's column index, when known.
    private func image(
        of latest: [SyncSnapshotCell], columns: [Int]?, key: DatabaseValue, in table: SyncedTable, page: SyncSnapshotPage
    ) throws -> [DatabaseValue]? {
        guard table.foreignKeys.isEmpty, latest.count == table.columns.count, let stamp = latest.first?.stamp,
            latest.allSatisfy({ $0.stamp == stamp })
        else { return nil }
        var values = [DatabaseValue](repeating: .null, count: table.columns.count)
        for (index, cell) in latest.enumerated() {
            guard let column = columns?[index] ?? table.columnIndex(spelled: cell.column) else { return nil }
            values[column] = DatabaseValue(cell.value)
        }
        let image = SyncRowImage.encode(columns: table.columns, values: values)
        return [key] + values + [.integer(stamp.hlc), .text(try device(stamp, in: page)), .blob(image)]
    }

    /// The row's cells in the page's order, of a column given twice only the latest.
    private func latestCells(of row: SyncSnapshotRow, in table: SyncedTable, page: SyncSnapshotPage) throws -> [SyncSnapshotCell] {
        var latest: [Int?] = Array(repeating: nil, count: table.columns.count)
        for (index, cell) in row.cells.enumerated() {
            guard let column = table.columnIndex(spelled: cell.column) else {
                throw StoreError.syncChangeRefused("the snapshot names column \"\(cell.column)\", which \"\(table.name)\" has not")
            }
            if let kept = latest[column], try !isGreater(cell.stamp, than: row.cells[kept].stamp, in: page) { continue }
            latest[column] = index
        }
        let kept = latest.compactMap { $0 }
        return kept.count == row.cells.count ? row.cells : kept.sorted().map { row.cells[$0] }
    }

    private func isGreater(_ stamp: SyncSnapshotStamp, than other: SyncSnapshotStamp, in page: SyncSnapshotPage) throws -> Bool {
        guard stamp.hlc == other.hlc else { return stamp.hlc > other.hlc }
        return try device(other, in: page).utf8Precedes(try device(stamp, in: page))
    }

    private func device(_ stamp: SyncSnapshotStamp, in page: SyncSnapshotPage) throws -> String {
        guard page.devices.indices.contains(stamp.device) else {
            throw StoreError.syncChangeRefused("the snapshot names device #\(stamp.device), which it does not list")
        }
        return page.devices[stamp.device]
    }
}

extension DatabaseValue {
    /// Whether the value is a text or a blob.
    fileprivate var isTextOrBlob: Bool {
        switch self {
        case .text, .blob: true
        default: false
        }
    }

    /// Whether the value, a text or a blob, comes before `other` in SQLite's order: texts
    /// before blobs, texts by their UTF-8 bytes (`BINARY`), blobs by their bytes; `false` for
    /// values of other storage classes.
    fileprivate func bytesPrecede(_ other: DatabaseValue) -> Bool {
        switch (self, other) {
        case (.text(let a), .text(let b)): a.utf8Precedes(b)
        case (.text, .blob): true
        case (.blob(let a), .blob(let b)): a.lexicographicallyPrecedes(b)
        default: false
        }
    }
}
