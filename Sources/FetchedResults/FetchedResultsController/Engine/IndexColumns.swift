import SQLiteStoreCore

/// Where a statement selecting a `FetchPlan`'s `selection` holds what the index keeps of a
/// row: the rowid first, then the sort keys, the section name value and the fingerprinted
/// values. Not generic over the model, so that reading a whole index (a million rows) runs
/// specialized code: in `FetchPlan<M>` every row went through the run-time metadata of a
/// generic row type.
struct IndexColumns: Sendable {
    /// Where the sort keys are, most significant first.
    let keys: [Int]
    /// Where the value naming a section is, when the results are sectioned.
    let section: Int?
    /// Where the fingerprinted values start; they run to the last column.
    let fingerprinted: Int

    /// The rowid of the current row, `nil` when it is not an INTEGER.
    func rowID(in statement: Statement, base: Int = 0) -> Int64? { statement.integer(at: base) }

    /// The sort keys of the current row, read without collecting them in an array first.
    func keys(in statement: Statement, base: Int = 0) -> SortKeys {
        guard let first = keys.first else { return SortKeys(single: .null) }
        let value = statement.value(at: base + first)
        guard keys.count > 1 else { return SortKeys(single: value) }
        return SortKeys(first: value, rest: keys.dropFirst().map { statement.value(at: base + $0) })
    }

    /// The value naming the current row's section, whose sort keys are `rowKeys`; `.null`
    /// when not sectioned.
    func sectionValue(in statement: Statement, base: Int = 0, keys rowKeys: SortKeys) -> DatabaseValue {
        guard let section else { return .null }
        return section == keys.first ? rowKeys.first : statement.value(at: base + section)
    }

    /// The fingerprint of the current row's values.
    func fingerprint(in statement: Statement, base: Int = 0) -> UInt64 {
        statement.fingerprint(columns: (base + fingerprinted)..<statement.columnCount)
    }

    /// Steps `statement` to its end, appending each row to `index` (rows come in the
    /// index's order) from column `base` on, and calls `eachRow` with each row's rowid (the
    /// statement on that row) and `every256Rows` with the rows appended so far every 256
    /// rows stepped. Returns the number of rows stepped. With `checkingOrder`, throws
    /// `RowsOutOfOrder` at the first row that does not follow the one before in the index's order.
    func read(
        _ statement: Statement, base: Int = 0, into index: inout ResultIndex, checkingOrder: Bool = false,
        eachRow: ((Int64) throws -> Void)? = nil, every256Rows: (ResultIndex) throws -> Void
    ) throws -> Int {
        var stepped = 0
        var previous: (rowID: Int64, keys: SortKeys)?
        try statement.forEachRow {
            stepped += 1
            if let rowID = rowID(in: statement, base: base) {
                let rowKeys = keys(in: statement, base: base)
                if checkingOrder {
                    if let previous, !index.order.precedes(previous.keys, previous.rowID, rowKeys, rowID) { throw RowsOutOfOrder() }
                    previous = (rowID, rowKeys)
                }
                index.append(
                    rowID, rowKeys, fingerprint: fingerprint(in: statement, base: base),
                    sectionValue: sectionValue(in: statement, base: base, keys: rowKeys))
                try eachRow?(rowID)
            }
            if stepped & 0xFF == 0 { try every256Rows(index) }
        }
        return stepped
    }
}

/// A statement's rows did not come in the order its reader was told to expect.
struct RowsOutOfOrder: Error {}
