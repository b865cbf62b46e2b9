import SQLiteStoreCore

/// What a controller reads for a request: the key columns, the order, and whether changes
/// can be applied row by row.
struct FetchPlan<M: StoreModel>: Sendable {
    let request: StoreRequest<M>
    let order: KeyOrder
    /// The sort key columns, quoted, after the rowid (see `keyColumns(rowID:)`).
    private let sortKeyColumns: [String]
    /// Whether the predicate and sort read only the table's own columns and there is no window.
    let isIncremental: Bool

    /// Checks the request: a section key must be the first sort key.
    init(_ request: StoreRequest<M>) throws(FetchedResultsError) {
        if let sectionKey = request.sectionKey, request.orderings.first?.column != sectionKey {
            throw .sectionKeyNotFirstSortKey(sectionKey: sectionKey.name, firstSortKey: request.orderings.first?.column.name)
        }
        self.request = request
        order = KeyOrder(isAscending: request.orderings.map(\.isAscending))
        sortKeyColumns = request.orderings.map(\.column.quoted)
        let predicateIsAnalysable = request.predicate.map { $0.referencedColumns != nil } ?? true
        isIncremental = predicateIsAnalysable && request.limit == nil && (request.offset ?? 0) == 0
    }

    var table: String { request.tableName }

    /// The rowid, read as `rowID` (`Database.rowIDName(of:)`), then the sort key columns.
    private func keyColumns(rowID: String) -> String {
        ([rowID] + sortKeyColumns).joined(separator: ", ")
    }

    func emptyIndex() -> ResultIndex { ResultIndex(order: order, isSectioned: request.sectionKey != nil) }

    /// The row's rowid and keys, from a statement selecting `keyColumns`.
    func row(from statement: Statement) -> (Int64, SortKeys)? {
        guard case .integer(let rowID) = statement.value(at: 0) else { return nil }
        return (rowID, SortKeys((0..<request.orderings.count).map { statement.value(at: $0 + 1) }))
    }

    /// The whole index, read in order; `rowsRead` counts the rows.
    func fetchIndex(_ db: Database, rowsRead: inout Int) throws -> ResultIndex {
        var index = emptyIndex()
        let rowID = try db.rowIDName(of: table)
        let (sql, arguments) = try request.sql(selecting: keyColumns(rowID: rowID), rowID: rowID)
        let statement = try db.cachedStatement(sql: sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        while try statement.step() {
            rowsRead += 1
            if let (rowID, keys) = row(from: statement) { index.append(rowID, keys) }
        }
        return index
    }

    /// The keys of those of `rowIDs` that match the predicate now.
    func fetchKeys(_ db: Database, rowIDs: Set<Int64>, rowsRead: inout Int) throws -> [Int64: SortKeys] {
        var found: [Int64: SortKeys] = [:]
        let columns = keyColumns(rowID: try db.rowIDName(of: table))
        try db.forEachRow(in: table, columns: columns, rowIDs: rowIDs, where: request.predicate) { statement in
            rowsRead += 1
            if let (rowID, keys) = row(from: statement) { found[rowID] = keys }
        }
        return found
    }
}
