/// What to fetch of a model's table: a predicate, a sort order, a window, and for the
/// fetched-results controller a section key and a batch size.
///
/// ```swift
/// let request = StoreRequest<Item>()
///     .filter(Column("done") == false)
///     .order(Column("category").ascending, Column("position").ascending)
///     .sectioned(by: Column("category"))
/// ```
public struct StoreRequest<M: StoreModel>: Sendable {
    /// The table to read; the model's table unless the request names another with the same columns.
    public var tableName: String
    /// The condition rows must meet, or `nil` for all rows.
    public var predicate: SQLExpression?
    /// The sort keys, most significant first. Rows that tie on every key are ordered by rowid.
    public var orderings: [Ordering]
    /// The maximum number of rows, or `nil`.
    public var limit: Int?
    /// How many leading rows to skip.
    public var offset: Int?
    /// The column whose value groups rows into sections; the request must sort by it first.
    public var sectionKey: Column?
    /// How many objects a fetched-results controller reads at a time; `nil` reads all at once.
    public var batchSize: Int?
    /// The relationships whose related objects are read with each row (``including(_:)``),
    /// in the order they were added.
    public var inclusions: [IncludedRelationship] = []

    /// A request for every row of `M`'s table (or of `tableName`), in rowid order.
    public init(
        tableName: String = M.tableName, predicate: SQLExpression? = nil, orderings: [Ordering] = [],
        limit: Int? = nil, offset: Int? = nil, sectionKey: Column? = nil, batchSize: Int? = nil
    ) {
        self.tableName = tableName
        self.predicate = predicate
        self.orderings = orderings
        self.limit = limit
        self.offset = offset
        self.sectionKey = sectionKey
        self.batchSize = batchSize
    }

    /// The request with `condition` added (AND) to its predicate.
    public func filter(_ condition: SQLExpression) -> Self {
        var copy = self
        copy.predicate = predicate.map { $0 && condition } ?? condition
        return copy
    }

    /// The request sorted by `orderings`, replacing its sort order.
    public func order(_ orderings: Ordering...) -> Self {
        var copy = self
        copy.orderings = orderings
        return copy
    }

    /// The request limited to `limit` rows after skipping `offset`.
    public func limit(_ limit: Int, offset: Int? = nil) -> Self {
        var copy = self
        copy.limit = limit
        copy.offset = offset
        return copy
    }

    /// The request grouped into sections by `column` (sort by it first).
    public func sectioned(by column: Column) -> Self {
        var copy = self
        copy.sectionKey = column
        return copy
    }

    /// The request read in batches of `size` objects by a fetched-results controller.
    public func batchSize(_ size: Int) -> Self {
        var copy = self
        copy.batchSize = size
        return copy
    }

    /// The to-one relationships whose related rows the predicate, the orderings or the section key read.
    package var referencedLinks: Set<ToOneLink> {
        let columns = orderings.map(\.column) + (sectionKey.map { [$0] } ?? [])
        return (predicate?.referencedLinks ?? []).union(columns.flatMap(\.path))
    }

    /// The `WHERE … ORDER BY … LIMIT … OFFSET …` tail of the request's queries, with its arguments.
    /// Ties are broken by rowid (read as `rowID`, see `Database.rowIDName(of:)`) so the order is total and stable.
    func clauses(includingWindow: Bool = true, rowID: String = "rowid") throws -> (sql: String, arguments: [DatabaseValue]) {
        var sql = ""
        var arguments: [DatabaseValue] = []
        if let predicate {
            sql += " WHERE \(predicate.sql)"
            arguments += predicate.arguments
        }
        sql += " ORDER BY " + (orderings.map(\.sql) + ["\(rowID) ASC"]).joined(separator: ", ")
        arguments += orderings.flatMap(\.arguments)
        guard includingWindow, limit != nil || offset != nil else { return (sql, arguments) }
        // Checked before defaulting: SQLite reads LIMIT -1 as "no limit", which limit(-1) must not mean.
        guard (limit ?? 0) >= 0, (offset ?? 0) >= 0 else {
            throw StoreError(
                code: .range,
                message: "limit and offset must not be negative (limit \(limit.map(String.init) ?? "none"), offset \(offset ?? 0))")
        }
        sql += " LIMIT ? OFFSET ?"
        arguments += [.integer(Int64(limit ?? -1)), .integer(Int64(offset ?? 0))]
        return (sql, arguments)
    }

    /// `SELECT <columns> FROM <table> <clauses>` with its arguments (`columnArguments`, those
    /// of the columns' placeholders, first); the model's columns by default. `rowID` is how
    /// the table's rowid is read (`Database.rowIDName(of:)`).
    func selectSQL(
        columns: String? = nil, columnArguments: [DatabaseValue] = [], rowID: String = "rowid"
    ) throws -> (sql: String, arguments: [DatabaseValue]) {
        let (tail, arguments) = try clauses(rowID: rowID)
        return ("SELECT \(columns ?? M.selection) FROM \(SQLIdentifier.quote(tableName))\(tail)", columnArguments + arguments)
    }
}
