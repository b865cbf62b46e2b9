extension Database {
    /// Compares `M` with its table and throws one `StoreError` (`SQLITE_MISMATCH`) that lists
    /// every difference (see `schemaDifferences(_:)`), so that a model and its migrations
    /// cannot drift apart silently: `try db.check(Item.self)`.
    public func check<M: StoreModel>(_ type: M.Type) throws {
        let differences = try schemaDifferences(M.self)
        guard !differences.isEmpty else { return }
        let list = differences.map { "- \($0)" }.joined(separator: "\n")
        throw StoreError.mismatch("\(M.self) does not match table \(M.tableName):\n\(list)")
    }

    /// Every difference between `M` and its table: a missing table or column, a `WITHOUT
    /// ROWID` table, another primary key, another type affinity, another nullability, and
    /// table columns the model does not write that need a value, and declared relationships
    /// (`storeRelationships`) whose foreign key the schema lacks. Empty when they match.
    ///
    /// A model read through `Codable` declares no columns: only its table and primary key are checked.
    public func schemaDifferences<M: StoreModel>(_ type: M.Type) throws -> [SchemaDifference] {
        let table = M.tableName
        let columns = try fetchRows(
            sql: "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?)",
            arguments: [table]
        )
        .map(TableColumnInfo.init(row:))
        guard !columns.isEmpty else { return [.missingTable(table)] }
        var differences: [SchemaDifference] = []
        if try fetchValue(Bool.self, sql: "SELECT wr FROM pragma_table_list WHERE name = ? COLLATE NOCASE", arguments: [table]) == true {
            differences.append(.withoutRowID(table))
        }
        let tableKey = columns.filter { $0.primaryKeyPosition > 0 }.map(\.name)
        if tableKey != [M.primaryKeyColumn] {
            differences.append(.primaryKey(expected: M.primaryKeyColumn, actual: tableKey))
        } else if M.ID.isRowIDAlias, let key = columns.first(where: { $0.name == M.primaryKeyColumn }),
            key.declaredType.uppercased() != "INTEGER"
        {
            differences.append(.notRowIDAlias(column: key.name, declaredType: key.declaredType))
        }
        differences += columnDifferences(M.self, columns: columns)
        for relationship in M.storeRelationships {
            for link in relationship.links where try foreignKey(matching: link) == nil {
                differences.append(.missingForeignKey(relationship: relationship.name, link: link))
            }
        }
        return differences
    }

    /// The differences between `M`'s declared columns and the table's `columns`.
    private func columnDifferences<M: StoreModel>(_ type: M.Type, columns: [TableColumnInfo]) -> [SchemaDifference] {
        guard let modelColumns = M.storeColumns else { return [] }
        var differences: [SchemaDifference] = []
        let byName = Dictionary(columns.map { ($0.name, $0) }) { first, _ in first }
        for column in modelColumns {
            guard let stored = byName[column.name] else {
                differences.append(.missingColumn(column.name))
                continue
            }
            differences += stored.differences(from: column, isRowIDKey: column.isPrimaryKey && M.ID.isRowIDAlias)
        }
        let written = Set(modelColumns.map(\.name))
        for column in columns where !written.contains(column.name) && column.needsValue {
            differences.append(.unwrittenRequiredColumn(column.name))
        }
        return differences
    }
}

/// One difference between a model and its table, found by `Database.schemaDifferences(_:)`.
public enum SchemaDifference: Sendable, Hashable, CustomStringConvertible {
    /// The table does not exist.
    case missingTable(String)
    /// The table is `WITHOUT ROWID`: models live in rowid tables (`ObjectID` is table and rowid).
    case withoutRowID(String)
    /// The model's column is not in the table.
    case missingColumn(String)
    /// The table's primary key is other columns than the model's.
    case primaryKey(expected: String, actual: [String])
    /// The model's `Int64` key is not declared `INTEGER PRIMARY KEY`, so it is not the rowid.
    case notRowIDAlias(column: String, declaredType: String)
    /// The column's type affinity differs from the one the property's type is stored with.
    case affinity(column: String, expected: ColumnAffinity, actual: ColumnAffinity)
    /// The column is `NOT NULL` but the property is optional.
    case notNullButOptional(column: String)
    /// The column accepts NULL but the property is not optional: reading a NULL fails.
    case nullableButRequired(column: String)
    /// A column the model does not write is `NOT NULL` without a default: every insert fails.
    case unwrittenRequiredColumn(String)
    /// A declared relationship follows a foreign key the schema does not declare
    /// (`PRAGMA foreign_key_list`): its delete rule is unknown and nothing keeps it valid.
    case missingForeignKey(relationship: String, link: ToOneLink)

    public var description: String {
        switch self {
        case .missingTable(let table): "table \(table) does not exist"
        case .withoutRowID(let table): "table \(table) is WITHOUT ROWID; models need rowid tables"
        case .missingColumn(let column): "column \(column) is missing"
        case .primaryKey(let expected, let actual):
            "primary key is \(actual.isEmpty ? "the rowid alone" : actual.joined(separator: ", ")), the model's is \(expected)"
        case .notRowIDAlias(let column, let declaredType):
            "column \(column) is \(declaredType) PRIMARY KEY; an Int64 key needs INTEGER PRIMARY KEY to be the rowid"
        case .affinity(let column, let expected, let actual):
            "column \(column) has \(actual.rawValue) affinity, the model stores \(expected.rawValue)"
        case .notNullButOptional(let column): "column \(column) is NOT NULL but its property is optional"
        case .nullableButRequired(let column): "column \(column) accepts NULL but its property is not optional"
        case .unwrittenRequiredColumn(let column): "column \(column) is NOT NULL without a default, and the model does not write it"
        case .missingForeignKey(let relationship, let link):
            "relationship \(relationship) needs the foreign key \(link), which the schema does not declare"
        }
    }
}

/// One row of `PRAGMA table_xinfo`.
private struct TableColumnInfo {
    let name: String
    let declaredType: String
    let isNotNull: Bool
    let hasDefault: Bool
    let primaryKeyPosition: Int
    /// Generated columns are computed by SQLite, never written.
    let isGenerated: Bool

    init(row: Row) throws {
        name = try row.decode(column: "name")
        declaredType = try row.decode(column: "type")
        isNotNull = try row.decode(column: "notnull")
        hasDefault = !(row["dflt_value"]?.isNull ?? true)
        primaryKeyPosition = try row.decode(column: "pk")
        isGenerated = try row.decode(Int.self, column: "hidden") > 1
    }

    /// Whether an insert that leaves the column out fails.
    var needsValue: Bool { isNotNull && !hasDefault && !isGenerated && primaryKeyPosition == 0 }

    func differences(from column: ModelColumn, isRowIDKey: Bool) -> [SchemaDifference] {
        var differences: [SchemaDifference] = []
        let actual = ColumnAffinity(declaredType: declaredType)
        if let expected = column.affinity, expected != actual {
            differences.append(.affinity(column: name, expected: expected, actual: actual))
        }
        // An INTEGER PRIMARY KEY never holds NULL: inserting NULL assigns the rowid.
        guard !isRowIDKey else { return differences }
        if column.isNullable, isNotNull { differences.append(.notNullButOptional(column: name)) }
        if !column.isNullable, !isNotNull, primaryKeyPosition == 0 { differences.append(.nullableButRequired(column: name)) }
        return differences
    }
}
