import SQLiteStoreCore

/// Finds the rows of a controller's table whose related rows a committed transaction may
/// have changed: those whose included related objects, counts or aggregates
/// (`StoreRequest.including`) may have changed, and those whose followed children changed
/// (counted, summed, or tested by the predicate: see `FetchPlan.followedChildren`). The
/// engine reads them again with the transaction's changed rows; their fingerprints, which
/// cover their included values, tell which changed.
///
/// A relationship whose keys are rowids (`Database.findsChildrenByParentRowID`) is followed
/// row by row:
/// - a to-one parent: the rows whose foreign key holds a changed parent's rowid;
/// - a to-many collection: the old and new parents of each changed child, the old ones
///   remembered here (child rowid → parent rowid), since a deleted child is gone;
/// - a many-to-many collection: the old and new sources of each changed row of the join
///   table (remembered likewise), and the sources paired with a changed target.
///
/// Any other relationship (another key, a `WITHOUT ROWID` join table), a table changed
/// wholly, or a commit of another connection makes every row count as changed.
struct RelatedRowsTracker: Sendable {
    private enum Followed: Sendable {
        case parent(ToOneLink)
        /// Each child's parent is in the relationship's `owners`.
        case children(ToOneLink)
        /// Each pair's source is in the relationship's `owners`.
        case pairs(source: ToOneLink, target: ToOneLink)
        /// Followed table by table: any change there changes every row.
        case tables([String])
    }

    private let table: String
    private let followed: [Followed]
    /// For each relationship followed, the rowid each child or pair points at, by its rowid
    /// (empty for the others). Kept apart from `followed`, so that a change updates them in
    /// place: copying a million of them would cost tens of milliseconds.
    private var owners: [[Int64: Int64]]
    /// Every table the relationships read.
    let tables: Set<String>

    /// The tracker of `request`'s inclusions, reading in `db` what it remembers: one
    /// statement per to-many or many-to-many inclusion; `nil` when it includes nothing.
    static func inclusions<M>(of request: StoreRequest<M>, db: Database) throws -> Self? {
        request.inclusions.isEmpty ? nil : try Self(table: request.tableName, following: request.inclusions.map(\.kind), db: db)
    }

    /// The tracker of the children `plan`'s keys and predicate read (one statement per
    /// relationship); `nil` when they read none.
    static func followedChildren<M>(of plan: FetchPlan<M>, db: Database) throws -> Self? {
        plan.followedChildren.isEmpty
            ? nil : try Self(table: plan.table, following: plan.followedChildren.map { .toMany($0) }, db: db)
    }

    /// The tracker of the relationships of `kinds` from `table`, reading in `db` what it remembers.
    private init(table: String, following kinds: [IncludedRelationship.Kind], db: Database) throws {
        self.table = table
        tables = Set(kinds.flatMap(IncludedRelationship.tables(of:)).map(\.sqliteIdentifierFolded))
        let resolved = try kinds.map { try Self.follow($0, from: table, db) }
        followed = resolved.map(\.followed)
        owners = resolved.map(\.owners)
    }

    private static func follow(
        _ kind: IncludedRelationship.Kind, from table: String, _ db: Database
    ) throws -> (followed: Followed, owners: [Int64: Int64]) {
        switch kind {
        case .toOne(let link):
            guard try db.findsChildrenByParentRowID(link) else { break }
            return (.parent(link), [:])
        case .toMany(let link):
            guard try db.findsChildrenByParentRowID(link) else { break }
            return (.children(link), try owners(in: link.childTable, through: link.foreignKey, db))
        case .manyToMany(let source, let target):
            guard try db.findsChildrenByParentRowID(source), try db.findsChildrenByParentRowID(target),
                try !db.isWithoutRowID(source.childTable)
            else { break }
            return (.pairs(source: source, target: target), try owners(in: source.childTable, through: source.foreignKey, db))
        case .tables: break
        }
        return (.tables(IncludedRelationship.tables(of: kind)), [:])
    }

    /// Each row of `table` with the rowid its `foreignKey` points at (rows with none left out).
    private static func owners(in table: String, through foreignKey: String, _ db: Database) throws -> [Int64: Int64] {
        let rowID = try db.rowIDName(of: table)
        let statement = try db.cachedStatement(
            sql: "SELECT \(rowID), \(SQLIdentifier.quote(foreignKey)) FROM \(SQLIdentifier.quote(table))")
        defer { statement.reset() }
        var owners: [Int64: Int64] = [:]
        while try statement.step() {
            if let row = statement.integer(at: 0), let owner = statement.integer(at: 1) { owners[row] = owner }
        }
        return owners
    }

    /// Whether `changes` touches a table the relationships read.
    func isAffected(by changes: StoreChanges) -> Bool {
        tables.contains { !changes.changes(in: $0).isEmpty }
    }

    /// The rowids of the rows whose related rows `changes` may have changed, or `nil`
    /// for every row (then the tracker must be made again). Reads in `db`, a snapshot that
    /// has `changes`.
    mutating func changedRows(by changes: StoreChanges, db: Database) throws -> Set<Int64>? {
        if changes.isExternal { return nil }
        var changed: Set<Int64> = []
        for position in followed.indices {
            guard
                let rows = try Self.changedRows(
                    by: changes, through: followed[position], owners: &owners[position], from: table, db)
            else { return nil }
            changed.formUnion(rows)
        }
        return changed
    }

    /// The rows of `table` whose related rows through `followed` `changes` may have changed
    /// (`nil` for every row), updating the relationship's `owners`.
    private static func changedRows(
        by changes: StoreChanges, through followed: Followed, owners: inout [Int64: Int64], from table: String, _ db: Database
    ) throws -> Set<Int64>? {
        switch followed {
        case .parent(let link):
            let parents = changes.changes(in: link.parentTable)
            if parents.isWhollyChanged { return nil }
            return try rows(of: table, whose: link.foreignKey, isIn: parents.allRowIDs, db)
        case .children(let link):
            let children = changes.changes(in: link.childTable)
            if children.isWhollyChanged { return nil }
            return try reassign(children.allRowIDs, in: link.childTable, through: link.foreignKey, &owners, db)
        case .pairs(let source, let target):
            let (pairs, targets) = (changes.changes(in: source.childTable), changes.changes(in: target.parentTable))
            if pairs.isWhollyChanged || targets.isWhollyChanged { return nil }
            var changed = try reassign(pairs.allRowIDs, in: source.childTable, through: source.foreignKey, &owners, db)
            // The pairs of a changed target, read by the target's rowid, name its sources.
            try db.forEachRow(
                in: source.childTable, columns: SQLIdentifier.quote(source.foreignKey), rowIDs: targets.allRowIDs,
                rowID: SQLIdentifier.quote(target.foreignKey)
            ) { statement in
                if let owner = statement.integer(at: 0) { changed.insert(owner) }
            }
            return changed
        case .tables(let tables):
            return tables.contains { !changes.changes(in: $0).isEmpty } ? nil : []
        }
    }

    /// The rowids of `table`'s rows whose `column` holds one of `values`.
    private static func rows(of table: String, whose column: String, isIn values: Set<Int64>, _ db: Database) throws -> Set<Int64> {
        var rows: Set<Int64> = []
        let rowID = try db.rowIDName(of: table)
        try db.forEachRow(in: table, columns: rowID, rowIDs: values, rowID: SQLIdentifier.quote(column)) { statement in
            if let row = statement.integer(at: 0) { rows.insert(row) }
        }
        return rows
    }

    /// Reads the owners of the `changed` rows of `table` again, updating `owners`; returns
    /// their owners before and after.
    private static func reassign(
        _ changed: Set<Int64>, in table: String, through foreignKey: String, _ owners: inout [Int64: Int64], _ db: Database
    ) throws -> Set<Int64> {
        var affected = Set(changed.compactMap { owners.removeValue(forKey: $0) })
        let rowID = try db.rowIDName(of: table)
        try db.forEachRow(
            in: table, columns: "\(rowID), \(SQLIdentifier.quote(foreignKey))", rowIDs: changed, rowID: rowID
        ) { statement in
            guard let row = statement.integer(at: 0), let owner = statement.integer(at: 1) else { return }
            owners[row] = owner
            affected.insert(owner)
        }
        return affected
    }
}
