/// Keyset queries over the sections of a sectioned request (its first sort key is its section
/// key): the rows of one section, and the section key values after a given one, each section
/// compared as the ordering's collation compares (one section per distinct value, NULL one).
extension StoreRequest {
    /// The condition "in the section whose key is `value`": the first sort key (the section
    /// key: a sectioned request sorts by it first) equal to `value` with its ordering's
    /// collation, `IS NULL` for NULL; `nil` for a request with no sort key.
    package func sectionCondition(equalTo value: DatabaseValue) -> SQLExpression? {
        orderings.first.map { Self.comparisons(Self.key($0), value, isAscending: $0.isAscending).equal }
    }

    /// `SELECT DISTINCT <section key> … ORDER BY <section key> LIMIT 1 OFFSET ?`, with its
    /// arguments: the section key value of the section `offset` sections past the one whose
    /// key is `value` (from the first section when `nil`), in the request's order; no row past
    /// the last section. DISTINCT groups the values as the ordering's collation compares them,
    /// as `ORDER BY` does: one value per section. It steps over every row between; without an
    /// index on the section key it costs one scan and a sort of the sections, where
    /// `nextSectionValueSQL` would cost one per section. Throws `SQLITE_MISUSE` for a request
    /// with no sort key and `SQLITE_RANGE` for a negative offset.
    package func sectionValueSQL(offset: Int, after value: DatabaseValue?) throws -> (sql: String, arguments: [DatabaseValue]) {
        let first = try sectionOrdering()
        guard offset >= 0 else { throw StoreError(code: .range, message: "a section offset must not be negative (\(offset))") }
        let after = value.map { Self.comparisons(Self.key(first), $0, isAscending: first.isAscending).after }
        return sectionKeySelect(first, distinct: true, where: after, offset: offset)
    }

    /// The queries reading the section key value of the first section after the one whose key
    /// is `value` (of the first section when `nil`), with their arguments: one per stretch of
    /// the order where it may be, in order (ascending, the values above `value`, past NULL;
    /// descending, those below it, then NULL), each `SELECT <section key> … ORDER BY
    /// <section key> LIMIT 1`, which an index on the section key answers with a seek. The
    /// first that finds a row has it. Throws `SQLITE_MISUSE` for a request with no sort key.
    package func nextSectionValueSQL(after value: DatabaseValue?) throws -> [(sql: String, arguments: [DatabaseValue])] {
        let first = try sectionOrdering()
        let (key, arguments) = (Self.key(first).sql, Self.key(first).arguments)
        let stretches: [SQLExpression?]
        switch (value, first.isAscending) {
        case (nil, _): stretches = [nil]
        case (.null?, true): stretches = [SQLExpression(sql: "(\(key)) IS NOT NULL", arguments: arguments, columns: nil)]
        case (.null?, false): stretches = []
        case (let value?, true): stretches = [SQLExpression(sql: "\(key) > ?", arguments: arguments + [value], columns: nil)]
        case (let value?, false):
            stretches = [
                SQLExpression(sql: "\(key) < ?", arguments: arguments + [value], columns: nil),
                SQLExpression(sql: "(\(key)) IS NULL", arguments: arguments, columns: nil),
            ]
        }
        return stretches.map { sectionKeySelect(first, distinct: false, where: $0, offset: nil) }
    }

    /// The first sort key: a sectioned request sorts by its section key first.
    private func sectionOrdering() throws -> Ordering {
        guard let first = orderings.first else {
            throw StoreError(code: .misuse, message: "a request without a sort key has no sections to read")
        }
        return first
    }

    /// `SELECT [DISTINCT] <key of first> FROM <table> WHERE <predicate> AND <condition>
    /// ORDER BY <first> LIMIT 1 [OFFSET ?]`, with its arguments.
    private func sectionKeySelect(
        _ first: Ordering, distinct: Bool, where condition: SQLExpression?, offset: Int?
    ) -> (sql: String, arguments: [DatabaseValue]) {
        let predicate = condition.map { filter($0).predicate } ?? predicate
        let whereClause = predicate.map { " WHERE \($0.sql)" } ?? ""
        let key = Self.key(first)
        let select = "SELECT \(distinct ? "DISTINCT " : "")\(key.sql) FROM \(SQLIdentifier.quote(tableName))"
        return (
            select + whereClause + " ORDER BY \(first.sql) LIMIT 1" + (offset == nil ? "" : " OFFSET ?"),
            key.arguments + (predicate?.arguments ?? []) + first.arguments + (offset.map { [.integer(Int64($0))] } ?? [])
        )
    }
}
