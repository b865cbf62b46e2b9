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
///
/// A key or predicate read through a to-one link (`Item.list.name`) stays incremental when
/// the link starts at the request's table and finds its children by the parent's rowid
/// (`Database.findsChildrenByParentRowID`): a changed parent row's children are read again
/// by their foreign key and merged like changed rows of their own.
///
/// A key or predicate reading the row's children by their own columns
/// (`TodoList.items.count { $0.done == false }`, `TodoList.items.any { $0.done == false }`,
/// `TodoList.items.sum(\.score) > 10`) stays incremental too: the rows whose key or match a
/// change of the child table may alter (the old and new parents of each changed child, see
/// `followedChildren`) are read again like changed rows.
struct FetchPlan<M: StoreModel>: Sendable {
    let request: StoreRequest<M>
    let order: KeyOrder
    /// How the table's rowid is read (`Database.rowIDName(of:)`: a column named `rowid` hides it).
    let rowID: String
    /// The rowid, the key values, the section name value when keys are ranks, one value per
    /// included relationship (see `IncludedValuesColumn`), then `*`.
    let selection: String
    /// The values bound to the placeholders of `selection` (a related count's), in order.
    let selectionArguments: [DatabaseValue]
    /// Whether the keys are SQLite's ranks rather than the column values.
    let ranksInSQL: Bool
    /// Whether the first sort key is a column of the table declared `NOT NULL`: a keyset
    /// query bounds it descending too (see `StoreRequest.keysetCondition`).
    let firstKeyIsNeverNull: Bool
    /// Where in `selection` the sort keys, the section name value and the fingerprinted
    /// values are: the row's values, and with links the keys too (a child's keys change with
    /// its parent while its own values stay the same).
    let columns: IndexColumns
    /// Where the row's own values (`*`) start in `selection`.
    private let valueColumns: Int
    /// The values of the included relationships, one SQL expression each, in `selection`
    /// before the row's own values (and fingerprinted with them).
    private let includedColumns: [String]
    /// The to-one links the predicate, the orderings or the section key read.
    let links: [ToOneLink]
    /// The links of the children (child to the request's table) whose own columns the keys
    /// (a count, a sum) or the predicate (`any`, a compared count) read: a changed child
    /// changes its old and new parents' keys or match.
    let followedChildren: [ToOneLink]
    /// The tables other than the request's own and its links' parents whose change means
    /// reading the results again: those the predicate reads in subqueries it cannot trace
    /// (many-to-many conditions, conditions on further tables) and those of keys computed
    /// from related rows not found by a foreign key alone.
    let unfollowedTables: Set<String>
    /// Whether the predicate reads a related row (a parent's change can make its children enter or leave).
    private let predicateReadsLinks: Bool
    /// Whether the predicate and sort read only the table's own columns or those of parents
    /// found by rowid, there is no window, and the order is reproduced in memory.
    let isIncremental: Bool
    /// Whether the controller holds every object with the index: then a re-read of changed
    /// rows decodes their models from the same statement. Without `everyObject`, only a
    /// request with no batch size and no included objects does (rows with included objects
    /// are read a batch at a time with them, on first access).
    let loadsObjects: Bool

    /// Checks the request: a section key must be the first sort key.
    static func validate(_ request: StoreRequest<M>) throws(FetchedResultsError) {
        if let sectionKey = request.sectionKey, request.orderings.first?.column != sectionKey {
            throw .sectionKeyNotFirstSortKey(sectionKey: sectionKey.name, firstSortKey: request.orderings.first?.column.name)
        }
    }

    /// The plan of `request` against the schema of `db`, with the store's `registered`
    /// collations; with `everyObject`, it reads every object with the index (a ``LiveValues``
    /// iterator's), included objects or not.
    init(_ request: StoreRequest<M>, db: Database, registered: [Collation], everyObject: Bool = false) throws {
        let request = db.namingParentCollations(request)
        self.request = request
        loadsObjects = request.batchSize == nil && (request.inclusions.isEmpty || everyObject)
        let rowID = try db.rowIDName(of: request.tableName)
        self.rowID = rowID
        let comparators = request.orderings.map { ordering in
            // A count compares as numbers do, whatever the collation.
            (ordering.collation?.name
                ?? (ordering.column.aggregate != nil
                    ? "BINARY"
                    : db.declaredCollation(table: ordering.column.relatedTable ?? request.tableName, column: ordering.column.name)))
                .flatMap { KeyComparator(collationNamed: $0, registered: registered) }
        }
        ranksInSQL = comparators.contains { $0 == nil }
        firstKeyIsNeverNull =
            request.orderings.first.map {
                $0.column.relatedTable == nil && $0.column.aggregate == nil
                    && db.declaresNotNull(table: request.tableName, column: $0.column.name)
            }
            ?? false
        let keyColumns: [Int]
        let sectionColumn: Int
        let included = try request.inclusions.map { try IncludedValuesColumn.expression(of: $0, from: request.tableName, db) }
        includedColumns = included.map(\.sql)
        selection = Self.selection(of: request, ranksInSQL: ranksInSQL, rowID: rowID, included: includedColumns, allColumns: "*")
        if ranksInSQL {
            var arguments: [DatabaseValue] = []
            if let first = request.orderings.first, let sectionKey = request.sectionKey {
                arguments += first.arguments + sectionKey.arguments
            }
            selectionArguments = arguments + request.orderings.flatMap(\.arguments) + included.flatMap(\.arguments)
            keyColumns = request.sectionKey == nil ? [1] : [1, 3]
            sectionColumn = 2
        } else {
            selectionArguments = request.orderings.flatMap(\.arguments) + included.flatMap(\.arguments)
            keyColumns = Array(request.orderings.indices.map { $0 + 1 })
            sectionColumn = 1
        }
        let firstValueColumn = 1 + keyColumns.count + (ranksInSQL && request.sectionKey != nil ? 1 : 0)
        links = Array(request.referencedLinks)
        let aggregates = request.orderings.compactMap(\.column.aggregate)
        followedChildren = Array(Set(aggregates.compactMap(\.children)).union(request.predicate?.childLinks ?? []))
        let predicateTables = (request.predicate?.untracedTables ?? []).subtracting(links.map(\.parentTable))
        unfollowedTables = predicateTables.union(aggregates.filter { $0.children == nil }.flatMap(\.tables))
        valueColumns = firstValueColumn + included.count
        // A key read from other rows changes while the row's own values stay the same.
        let keysFollowOtherRows = !links.isEmpty || !aggregates.isEmpty
        columns = IndexColumns(
            keys: keyColumns, section: request.sectionKey == nil ? nil : sectionColumn,
            fingerprinted: !keysFollowOtherRows || ranksInSQL ? firstValueColumn : 1)
        predicateReadsLinks = !(request.predicate?.referencedLinks.isEmpty ?? true)
        order =
            ranksInSQL
            ? KeyOrder(isAscending: keyColumns.map { _ in true })
            : KeyOrder(isAscending: request.orderings.map(\.isAscending), comparators: comparators.compactMap { $0 })
        let predicateIsAnalysable = request.predicate.map { $0.referencedColumns != nil } ?? true
        isIncremental =
            try !ranksInSQL && predicateIsAnalysable && request.limit == nil && (request.offset ?? 0) == 0
            && Self.followsByRowID(links, from: request.tableName, db: db)
    }

    /// The columns `selection` lists, naming the rowid `rowID`, the included relationships'
    /// values `included` and every column of the row `allColumns`: unqualified, or through
    /// the table for a query that joins it.
    private static func selection(
        of request: StoreRequest<M>, ranksInSQL: Bool, rowID: String, included: [String], allColumns: String
    ) -> String {
        var columns = [rowID]
        if ranksInSQL {
            let rowOrder = (request.orderings.map(\.sql) + ["\(rowID) ASC"]).joined(separator: ", ")
            if let first = request.orderings.first, let sectionKey = request.sectionKey {
                columns += ["dense_rank() OVER (ORDER BY \(first.sql))", sectionKey.sql]
            }
            columns.append("row_number() OVER (ORDER BY \(rowOrder))")
        } else {
            columns += request.orderings.map(\.column.sql)
        }
        return (columns + included + [allColumns]).joined(separator: ", ")
    }

    /// Whether every link starts at `table` (one hop) and finds its children by parent rowid.
    private static func followsByRowID(_ links: [ToOneLink], from table: String, db: Database) throws -> Bool {
        for link in links {
            guard link.childTable.matchesSQLiteIdentifier(table), try db.findsChildrenByParentRowID(link) else { return false }
        }
        return true
    }

    var table: String { request.tableName }

    func emptyIndex() -> ResultIndex { ResultIndex(order: order, isSectioned: request.sectionKey != nil) }

    /// The whole index, read in order; `rowsRead` counts the rows. Once `isCancelled` says
    /// so it stops with `CancellationError`, within the statement (an order no index serves
    /// sorts every row before the first: a released list's sort ran to its end), and it
    /// answers what the consumer asks `rest` about the rows past its first page.
    func fetchIndex(
        _ db: Database, rowsRead: inout Int, isCancelled: (@Sendable () -> Bool)? = nil, serving rest: RowsPastFirstPage<M>? = nil
    ) throws -> ResultIndex {
        var served = 0
        defer { rowsRead += served }
        let stops = isCancelled ?? { false }
        func read() throws -> ResultIndex {
            try readIndex(query(of: request), db, rowsRead: &rowsRead) { index in
                if stops() { throw CancellationError() }
                try rest?.serve(rowsRead: index.count, isCancelled: stops) { wanted in
                    try rows(wanted, readSoFar: index, db, rowsRead: &served)
                }
            }.index
        }
        return try isCancelled.map { try db.stopping(when: $0, read) } ?? read()
    }

    /// The first `size` rows of the index, read with SQLite's `LIMIT` over the request's
    /// order (served by an index on the order's columns, else by SQLite's top-N sort, see
    /// `sortedRowIDsQuery`), marked as a first page when more rows follow; `nil` for a
    /// request with a limit or an offset. With `loadsObjects`, the same statement reads the
    /// rows' objects too.
    func fetchFirstPage(_ db: Database, size: Int, rowsRead: inout Int) throws -> (index: ResultIndex, objects: RowModels<M>?)? {
        guard request.limit == nil, request.offset == nil else { return nil }
        let page = request.limit(size + 1)
        func readPage(_ query: (sql: String, arguments: [DatabaseValue]), checkingOrder: Bool) throws -> (
            index: ResultIndex, objects: RowModels<M>
        ) {
            try readIndex(
                query, db, withObjects: loadsObjects, capacity: size + 1, checkingOrder: checkingOrder, rowsRead: &rowsRead
            ) { _ in }
        }
        var read: (index: ResultIndex, objects: RowModels<M>)
        do {
            let sorted = try sortedRowIDsQuery(page, withObjects: loadsObjects, db)
            read = try readPage(sorted ?? query(of: page, withObjects: loadsObjects), checkingOrder: sorted != nil)
        } catch is RowsOutOfOrder {
            // Not seen with any SQLite so far: the join has no `ORDER BY` that promises its order.
            read = try readPage(query(of: page, withObjects: loadsObjects), checkingOrder: false)
        }
        read.index.isFirstPage = read.index.count > size
        return (read.index, loadsObjects ? read.objects : nil)
    }

    /// `request`'s query selecting the index's columns, after the model's `withObjects`.
    func query(of request: StoreRequest<M>, withObjects: Bool = false) throws -> (sql: String, arguments: [DatabaseValue]) {
        try request.sql(selecting: withObjects ? M.selection + ", " + selection : selection, arguments: selectionArguments, rowID: rowID)
    }

    /// When SQLite must sort every row `page` matches (no index serves its order), the
    /// query that reads its rows as SQLite reads them fastest: the same query selecting the
    /// rowid alone (its top-N sort then copies the sort keys and the rowid, not every column
    /// selected), joined to the table by rowid, so that only the page's rows are read whole,
    /// in the order the sort gave them; `nil` when an index serves the order. The join is
    /// `CROSS`, which keeps the sorted rowids the outer loop, and has no `ORDER BY`, whose
    /// second sort (of every selected column of the page's rows) cost as much as the rest of
    /// the page's reading; the rows are checked to come in order as they are read.
    func sortedRowIDsQuery(
        _ page: StoreRequest<M>, withObjects: Bool = false, _ db: Database
    ) throws -> (sql: String, arguments: [DatabaseValue])? {
        let table = SQLIdentifier.quote(request.tableName)
        // Named after the table, so never the table's own name.
        let sorted = SQLIdentifier.quote(request.tableName + " sorted rowid")
        let narrow = try page.sql(selecting: "\(rowID) AS \(sorted)", rowID: rowID)
        guard try db.sortsInTemporaryBTree(narrow) else { return nil }
        let columns = Self.selection(
            of: request, ranksInSQL: ranksInSQL, rowID: "\(table).\(rowID)", included: includedColumns, allColumns: "\(table).*")
        let selected = withObjects ? M.selection(qualifiedBy: request.tableName) + ", " + columns : columns
        return (
            "SELECT \(selected) FROM (\(narrow.sql)) AS \(sorted) CROSS JOIN \(table) ON \(table).\(rowID) = \(sorted).\(sorted)",
            selectionArguments + narrow.arguments
        )
    }

    /// Reads the index of `query` (which selects `selection`, after the model's columns
    /// `withObjects`, the same statement reading each row's model too) in order, calling
    /// `every256Rows` with the rows read so far; with `checkingOrder`, throws
    /// `RowsOutOfOrder` at a row that does not follow the one before in the plan's order.
    private func readIndex(
        _ query: (sql: String, arguments: [DatabaseValue]), _ db: Database, withObjects: Bool = false, capacity: Int = 0,
        checkingOrder: Bool = false, rowsRead: inout Int, every256Rows: (ResultIndex) throws -> Void
    ) throws -> (index: ResultIndex, objects: RowModels<M>) {
        var index = emptyIndex()
        // A first page's objects go in without growing the table (its resizing, run generic
        // over the model, was a twelfth of reading the page's index and objects, by `perf`).
        var objects = RowModels<M>(minimumCapacity: withObjects ? capacity : 0)
        let statement = try db.cachedStatement(sql: query.sql)
        try statement.bind(query.arguments)
        defer { statement.reset() }
        let models = withObjects ? ModelRows<M>(statement: statement) : nil
        rowsRead += try columns.read(
            statement, base: withObjects ? modelColumnCount(in: statement) : 0, into: &index, checkingOrder: checkingOrder,
            eachRow: models.map { models in { rowID in objects.set(try models.decodeRow(), for: rowID) } }, every256Rows: every256Rows)
        index.finishAppending()
        return (index, objects)
    }

    /// The rows among `rowIDs` that match the predicate now, with their models when the
    /// plan `loadsObjects` (incremental plans only).
    func fetchRows(_ db: Database, rowIDs: Set<Int64>, rowsRead: inout Int) throws -> RereadRows<M> {
        try reread(db, rowIDs: rowIDs, matchedAs: rowID, rowsRead: &rowsRead)
    }

    /// The children of the `parents` (rowids of `link`'s parent table) that match the
    /// predicate now, with their models when the plan `loadsObjects`, and, when the
    /// predicate reads a related row, the rowids of those that do not (they may be leaving
    /// the results); incremental plans only. Each statement selects by the foreign key, so
    /// the cost follows the children, given an index on it.
    func fetchChildren(
        _ db: Database, of link: ToOneLink, parents: Set<Int64>, rowsRead: inout Int
    ) throws -> (rows: RereadRows<M>, others: Set<Int64>) {
        // Matched "under the rowid's name": any integer column works, here the foreign key.
        let foreignKey = SQLIdentifier.quote(link.foreignKey)
        let found = try reread(db, rowIDs: parents, matchedAs: foreignKey, rowsRead: &rowsRead)
        var others: Set<Int64> = []
        guard predicateReadsLinks, let predicate = request.predicate else { return (found, others) }
        let failing = SQLExpression(sql: "NOT (CASE WHEN \(predicate.sql) THEN 1 ELSE 0 END)", arguments: predicate.arguments)
        try db.forEachRow(in: table, columns: rowID, rowIDs: parents, rowID: foreignKey, where: failing) { statement in
            rowsRead += 1
            if case .integer(let rowID) = statement.value(at: 0) { others.insert(rowID) }
        }
        return (found, others)
    }

    /// The rows whose column `key` is among `keys` and that match the predicate, each read
    /// once: the model's columns first when the plan `loadsObjects`, then `selection`.
    private func reread(
        _ db: Database, rowIDs keys: Set<Int64>, matchedAs key: String, rowsRead: inout Int
    ) throws -> RereadRows<M> {
        var found = RereadRows<M>()
        let selected = loadsObjects ? M.selection + ", " + selection : selection
        var models: ModelRows<M>?
        try db.forEachRow(
            in: table, columns: selected, columnArguments: selectionArguments, rowIDs: keys, rowID: key, where: request.predicate
        ) { statement in
            rowsRead += 1
            let base = loadsObjects ? modelColumnCount(in: statement) : 0
            guard let rowID = columns.rowID(in: statement, base: base) else { return }
            found.rows[rowID] = RereadRow(
                keys: columns.keys(in: statement, base: base), fingerprint: columns.fingerprint(in: statement, base: base))
            guard loadsObjects else { return }
            if models?.statement !== statement { models = ModelRows(statement: statement) }
            found.models[rowID] = try models?.decodeRow()
        }
        return found
    }

    /// How many of `statement`'s leading columns are the model's: its `storeColumns`, or for
    /// a `Codable` model (`*`) as many as the table has, which `selection` ends with too.
    private func modelColumnCount(in statement: Statement) -> Int {
        M.storeColumns?.count ?? (statement.columnCount - valueColumns) / 2
    }

    /// The parents' tables and the rowids changed in each, when `changes` touches any.
    func changedParents(in changes: StoreChanges) -> [(link: ToOneLink, changes: TableChanges)] {
        links.map { ($0, changes.changes(in: $0.parentTable)) }.filter { !$0.changes.isEmpty }
    }
}
