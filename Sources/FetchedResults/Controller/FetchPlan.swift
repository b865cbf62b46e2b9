import SQLiteStoreCore

/// What a controller reads for a request, resolved against the schema: the key columns,
/// the order and how to compare it in memory, and whether changes can be applied row by row.
///
/// Each sort key compares text with the ordering's collation, else the column's declared
/// one (`sqlite3_table_column_metadata`). When every collation is one the controller can
/// reproduce (BINARY, NOCASE, RTRIM, or a Swift collation registered with the store) the
/// index holds the keys and changes merge in by key. Otherwise (an unknown collation, a key
/// that is not a column) SQLite numbers the rows (`row_number()`, and `dense_rank()` for the
/// sections), the index holds those numbers, and every change reads the results again.
struct FetchPlan<M: StoreModel>: Sendable {
    let request: StoreRequest<M>
    let order: KeyOrder
    /// How the table's rowid is read (`Database.rowIDName(of:)`: a column named `rowid` hides it).
    let rowID: String
    /// The rowid, the key values, the section name value when keys are ranks, then `*`.
    let selection: String
    /// Whether the keys are SQLite's ranks rather than the column values.
    let ranksInSQL: Bool
    /// Where in `selection` the sort keys, the section name value and the row's values are.
    private let keyColumns: [Int]
    private let sectionColumn: Int
    private let firstValueColumn: Int
    /// Whether the predicate and sort read only the table's own columns, there is no window,
    /// and the order is reproduced in memory.
    let isIncremental: Bool

    /// Checks the request: a section key must be the first sort key.
    static func validate(_ request: StoreRequest<M>) throws(FetchedResultsError) {
        if let sectionKey = request.sectionKey, request.orderings.first?.column.name != sectionKey.name {
            throw .sectionKeyNotFirstSortKey(sectionKey: sectionKey.name, firstSortKey: request.orderings.first?.column.name)
        }
    }

    /// The plan of `request` against the schema of `db`, with the store's `registered` collations.
    init(_ request: StoreRequest<M>, db: Database, registered: [Collation]) throws {
        self.request = request
        let rowID = try db.rowIDName(of: request.tableName)
        self.rowID = rowID
        let comparators = request.orderings.map { ordering in
            (ordering.collation?.name
                ?? db.declaredCollation(
                    table: ordering.column.link?.parentTable ?? request.tableName, column: ordering.column.name))
                .flatMap { KeyComparator(collationNamed: $0, registered: registered) }
        }
        ranksInSQL = comparators.contains { $0 == nil }
        if ranksInSQL {
            let rowOrder = (request.orderings.map(\.sql) + ["\(rowID) ASC"]).joined(separator: ", ")
            var columns = [rowID]
            if let first = request.orderings.first, let sectionKey = request.sectionKey {
                columns += ["dense_rank() OVER (ORDER BY \(first.sql))", sectionKey.sql]
            }
            columns.append("row_number() OVER (ORDER BY \(rowOrder))")
            selection = (columns + ["*"]).joined(separator: ", ")
            keyColumns = request.sectionKey == nil ? [1] : [1, 3]
            sectionColumn = 2
        } else {
            selection = ([rowID] + request.orderings.map(\.column.sql) + ["*"]).joined(separator: ", ")
            keyColumns = Array(request.orderings.indices.map { $0 + 1 })
            sectionColumn = 1
        }
        firstValueColumn = 1 + keyColumns.count + (ranksInSQL && request.sectionKey != nil ? 1 : 0)
        order =
            ranksInSQL
            ? KeyOrder(isAscending: keyColumns.map { _ in true })
            : KeyOrder(isAscending: request.orderings.map(\.isAscending), comparators: comparators.compactMap { $0 })
        let predicateIsAnalysable = request.predicate.map { $0.referencedColumns != nil } ?? true
        isIncremental =
            !ranksInSQL && predicateIsAnalysable && request.referencedLinks.isEmpty && request.limit == nil && (request.offset ?? 0) == 0
    }

    var table: String { request.tableName }

    func emptyIndex() -> ResultIndex { ResultIndex(order: order, isSectioned: request.sectionKey != nil) }

    /// One row read with `selection`.
    struct Row {
        let rowID: Int64
        let keys: SortKeys
        let sectionValue: DatabaseValue
        let fingerprint: UInt64
    }

    /// The row at a statement selecting `selection`.
    func row(from statement: Statement) -> Row? {
        guard case .integer(let rowID) = statement.value(at: 0) else { return nil }
        return Row(
            rowID: rowID, keys: SortKeys(keyColumns.map { statement.value(at: $0) }),
            sectionValue: request.sectionKey == nil ? .null : statement.value(at: sectionColumn),
            fingerprint: statement.fingerprint(columns: firstValueColumn..<statement.columnCount))
    }

    /// The whole index, read in order; `rowsRead` counts the rows.
    func fetchIndex(_ db: Database, rowsRead: inout Int) throws -> ResultIndex {
        var index = emptyIndex()
        let (sql, arguments) = try request.sql(selecting: selection, rowID: rowID)
        let statement = try db.cachedStatement(sql: sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        while try statement.step() {
            rowsRead += 1
            if let row = row(from: statement) {
                index.append(row.rowID, row.keys, fingerprint: row.fingerprint, sectionValue: row.sectionValue)
            }
        }
        index.finishAppending()
        return index
    }

    /// The rows among `rowIDs` that match the predicate now (incremental plans only).
    func fetchRows(_ db: Database, rowIDs: Set<Int64>, rowsRead: inout Int) throws -> [Int64: Row] {
        var found: [Int64: Row] = [:]
        try db.forEachRow(in: table, columns: selection, rowIDs: rowIDs, rowID: rowID, where: request.predicate) { statement in
            rowsRead += 1
            if let row = row(from: statement) { found[row.rowID] = row }
        }
        return found
    }
}
