import SQLiteStoreCore

/// Rows of the whole index ahead of the rows read so far, found while the index is read, in
/// the same snapshot, by keyset queries that start where the rows read end (never reading
/// the results again):
/// - in a section read whole, the rows read answer;
/// - in the section being read (the only one, without sections), the rows past those read are
///   the request's rows after the last row read, in that section, skipping the ones between;
/// - a later section's key value is found from the last row's, a section at a time (the
///   first section key value after the one before, a seek in an index on the section key), or,
///   when no index serves that order, by one `SELECT DISTINCT … OFFSET` over the rows between;
///   its rows are the request's rows with that section key value.
///
/// When SQLite numbers the rows (a collation the controller cannot reproduce) the index holds
/// ranks, not key values: the queries then count from the first row or section.
extension FetchPlan {
    /// The rows `wanted` of the whole index, with their objects, in the snapshot of `db`'s
    /// transaction, while it reads the index: `readSoFar` holds the rows read so far.
    func rows(
        _ wanted: RowsPastFirstPage<M>.Wanted, readSoFar: ResultIndex, _ db: Database, rowsRead: inout Int
    ) throws -> RowsPastFirstPage<M>.Rows {
        var rowIDs = readSoFar.rowIDs(inSection: wanted.section, rows: wanted.rows)
        let start = wanted.rows.lowerBound + rowIDs.count
        if start < wanted.rows.upperBound,
            let ahead = try rowsAhead(inSection: wanted.section, from: start, readSoFar, db, rowsRead: &rowsRead)
        {
            let (sql, arguments) = try ahead.request.limit(wanted.rows.upperBound - start, offset: ahead.skipped)
                .sql(selecting: rowID, rowID: rowID)
            let statement = try db.cachedStatement(sql: sql)
            try statement.bind(arguments)
            defer { statement.reset() }
            while try statement.step() {
                if let rowID = statement.integer(at: 0) { rowIDs.append(rowID) }
            }
        }
        let models = try db.fetchModels(M.self, table: table, rowIDs: rowIDs)
        rowsRead += rowIDs.count + models.count
        return RowsPastFirstPage.Rows(rowIDs: rowIDs, models: models)
    }

    /// The request whose rows, past the first `skipped`, are the rows of section `section`
    /// from row `start` on, where none of them is among the rows `readSoFar`; `nil` when that
    /// section is read whole, or does not exist.
    private func rowsAhead(
        inSection section: Int, from start: Int, _ readSoFar: ResultIndex, _ db: Database, rowsRead: inout Int
    ) throws -> (request: StoreRequest<M>, skipped: Int)? {
        let beingRead = readSoFar.sectionCount - 1
        guard section >= beingRead else { return nil }
        let last = ranksInSQL ? nil : readSoFar.last
        if section == beingRead, let last {
            let after = rows(after: last.keys, rowID: last.rowID)
            let rest = request.sectionKey == nil ? after : try inSection(last.keys.first, of: after)
            return (rest, start - readSoFar.positions(inSection: section).count)
        }
        guard request.sectionKey != nil else { return (request, start) }
        // A later section, or when the keys are ranks any section: its key value first.
        let value = try sectionValue(
            skipping: last == nil ? section : section - readSoFar.sectionCount, after: last?.keys.first, db, rowsRead: &rowsRead)
        return try value.map { (try inSection($0, of: request), start) }
    }

    /// `request`'s rows after the row whose sort keys are `keys` and whose rowid is `rowID`,
    /// in its order: a keyset query, which an index on the order answers with a seek.
    func rows(after keys: SortKeys, rowID: Int64) -> StoreRequest<M> {
        request.filter(
            request.keysetCondition(
                after: [keys.first] + keys.rest, rowID: rowID, rowIDName: self.rowID, firstKeyIsNeverNull: firstKeyIsNeverNull))
    }

    /// `request`'s rows in the section whose key value is `value`.
    private func inSection(_ value: DatabaseValue, of request: StoreRequest<M>) throws -> StoreRequest<M> {
        guard let condition = request.sectionCondition(equalTo: value) else {
            throw StoreError(code: .misuse, message: "a sectioned request sorts by its section key first")
        }
        return request.filter(condition)
    }

    /// The section key value of the section `skipped` sections past the one whose key value
    /// is `value` (from the first when `nil`), or `nil` past the last section: one section after
    /// the other when an index on the section key serves the step (a seek each), else all at
    /// once (`SELECT DISTINCT … OFFSET`, one scan, where a step would scan each time).
    private func sectionValue(
        skipping skipped: Int, after value: DatabaseValue?, _ db: Database, rowsRead: inout Int
    ) throws -> DatabaseValue? {
        guard try stepsBySeeking(from: value, db) else {
            return try firstValue(request.sectionValueSQL(offset: skipped, after: value), db, rowsRead: &rowsRead)
        }
        var value = value
        for _ in 0...skipped {
            guard let next = try nextSectionValue(after: value, db, rowsRead: &rowsRead) else { return nil }
            value = next
        }
        return value
    }

    /// The section key value of the first section after the one whose key value is `value`
    /// (the first section when `nil`), or `nil` past the last.
    private func nextSectionValue(after value: DatabaseValue?, _ db: Database, rowsRead: inout Int) throws -> DatabaseValue? {
        for query in try request.nextSectionValueSQL(after: value) {
            if let found = try firstValue(query, db, rowsRead: &rowsRead) { return found }
        }
        return nil
    }

    /// Whether SQLite answers the step to the next section after `value` from an index, in
    /// order: its plan sorts nothing (no temporary B-tree).
    private func stepsBySeeking(from value: DatabaseValue?, _ db: Database) throws -> Bool {
        guard let step = try request.nextSectionValueSQL(after: value).first else { return true }
        return try !db.sortsInTemporaryBTree(step)
    }

    /// The first column of the first row `query` reads, or `nil` when it reads none.
    private func firstValue(_ query: (sql: String, arguments: [DatabaseValue]), _ db: Database, rowsRead: inout Int) throws
        -> DatabaseValue?
    {
        let statement = try db.cachedStatement(sql: query.sql)
        try statement.bind(query.arguments)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        rowsRead += 1
        return statement.value(at: 0)
    }
}
