/// One hop of a to-one relationship: rows of `childTable` point at rows of `parentTable`
/// through a foreign key, `childTable.foreignKey = parentTable.referencedKey`.
///
/// A ``Column`` read through a link is a column of the related row:
/// `Column("name", through: itemList)` is the name of the item's list, written in SQL as a
/// subquery on the parent's key, so the request's own columns stay unqualified:
///
/// ```swift
/// let itemList = ToOneLink(name: "list", childTable: "item", foreignKey: "list_id", parentTable: "list")
/// let byListName = StoreRequest<Item>().order(Column("name", through: itemList).ascending)
/// ```
public struct ToOneLink: Sendable, Hashable, CustomStringConvertible {
    /// The relationship's name, as a path spells it (`list` in `list.name`).
    public let name: String
    /// The table whose rows hold the foreign key.
    public let childTable: String
    /// The child's column holding the parent's key.
    public let foreignKey: String
    /// The table the foreign key refers to.
    public let parentTable: String
    /// The parent's column the foreign key refers to: its primary key unless the schema says otherwise.
    public let referencedKey: String

    /// The link from `childTable.foreignKey` to `parentTable.referencedKey`.
    public init(name: String, childTable: String, foreignKey: String, parentTable: String, referencedKey: String = "id") {
        self.name = name
        self.childTable = childTable
        self.foreignKey = foreignKey
        self.parentTable = parentTable
        self.referencedKey = referencedKey
    }

    public var description: String { "\(childTable).\(foreignKey) → \(parentTable).\(referencedKey)" }

    /// The SQL expression reading `column` of the related row, evaluated for each row of the
    /// child table (NULL when there is none):
    /// `(SELECT "list"."name" FROM "list" WHERE "list"."id" = "item"."list_id")`.
    public func valueSQL(of column: String) -> String { valueSQL(of: column, forKey: nil) }

    /// The SQL expression reading `column` of the parent row whose key is `key` (an SQL
    /// expression), or by default the child row's foreign key: a later hop of a path finds
    /// its parent by the key the hop before it read.
    func valueSQL(of column: String, forKey key: String?) -> String {
        valueSQL(selecting: "\(SQLIdentifier.quote(parentTable)).\(SQLIdentifier.quote(column))", forKey: key)
    }

    /// The SQL expression reading `expression` (over the parent's qualified columns) in the
    /// parent row whose key is `key`, as ``valueSQL(of:forKey:)`` reads a column.
    func valueSQL(selecting expression: String, forKey key: String?) -> String {
        let parent = SQLIdentifier.quote(parentTable)
        let key = key ?? "\(SQLIdentifier.quote(childTable)).\(SQLIdentifier.quote(foreignKey))"
        return "(SELECT \(expression) FROM \(parent) WHERE \(parent).\(SQLIdentifier.quote(referencedKey)) = \(key))"
    }
}
