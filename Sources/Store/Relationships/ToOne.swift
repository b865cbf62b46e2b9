/// A to-one relationship of model `Child` to model `Parent`: the child's foreign-key column
/// holds the parent's key. Declare it once, as a static property of the child:
///
/// ```swift
/// extension Item {
///     static let list = ToOne<Item, TodoList>("list", foreignKey: "list_id")
/// }
/// ```
///
/// Its columns are the parent's typed columns read from the child's side, for predicates,
/// orderings and section keys: `Item.list.name == "Groceries"`, `Item.list.name.ascending`.
/// A parent column named like a member of `ToOne` (`link`, `exists`, `matches`, `column`, `then`)
/// is reached with `column(_:)`: `Item.list.column(TodoList.columns.link)`.
@dynamicMemberLookup
public struct ToOne<Child: StoreModel, Parent: StoreModel>: Sendable, Hashable {
    /// The foreign key the relationship follows.
    public let link: ToOneLink

    /// The relationship named `name` through `Child`'s column `foreignKey`, which refers to
    /// `Parent`'s column `referencedKey` (its primary key by default).
    public init(_ name: String, foreignKey: String, referencedKey: String = Parent.primaryKeyColumn) {
        link = ToOneLink(
            name: name, childTable: Child.tableName, foreignKey: foreignKey, parentTable: Parent.tableName,
            referencedKey: referencedKey)
    }

    /// `column` of the related parent, read for each child (NULL when the child has no parent).
    public func column<Value>(_ column: TypedColumn<Parent, Value>) -> TypedColumn<Child, Value> {
        TypedColumn(Column(column.name, through: link))
    }
}

extension ToOne where Parent: TypedStoreModel {
    /// The parent's typed column of that name, read from the child's side: `Item.list.name`.
    public subscript<Value>(dynamicMember keyPath: KeyPath<Parent.Columns, TypedColumn<Parent, Value>>) -> TypedColumn<Child, Value> {
        column(Parent.columns[keyPath: keyPath])
    }
}
