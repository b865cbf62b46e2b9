/// To-one relationships followed one after the other, from model `Root` to model `Target`:
/// an item's list's owner. Start one from a ``ToOne`` with `then(_:)`:
///
/// ```swift
/// let byOwner = StoreRequest<Item>().order(Item.list.then(TodoList.owner).name.ascending)
/// ```
///
/// Its columns are the target's typed columns read from the root's side (NULL when a link on
/// the way finds no row), for predicates, orderings and section keys, as a ``ToOne``'s are one
/// link away. A target column named like a member of `ToOnePath` (`links`, `then`, `column`)
/// is reached with `column(_:)`.
@dynamicMemberLookup
public struct ToOnePath<Root: StoreModel, Target: StoreModel>: Sendable, Hashable {
    /// The links followed, the first from `Root`'s table.
    public let links: [ToOneLink]

    /// The path followed on through `next`: `Item.list.then(TodoList.owner).then(Person.team)`.
    public func then<Next>(_ next: ToOne<Target, Next>) -> ToOnePath<Root, Next> {
        ToOnePath<Root, Next>(links: links + [next.link])
    }

    /// `column` of the target, read for each root row.
    public func column<Value>(_ column: TypedColumn<Target, Value>) -> TypedColumn<Root, Value> {
        TypedColumn(Column(column.name, through: links))
    }
}

extension ToOnePath where Target: TypedStoreModel {
    /// The target's typed column of that name, read from the root's side: `Item.list.then(TodoList.owner).name`.
    public subscript<Value>(dynamicMember keyPath: KeyPath<Target.Columns, TypedColumn<Target, Value>>) -> TypedColumn<Root, Value> {
        column(Target.columns[keyPath: keyPath])
    }
}

extension ToOne {
    /// The path on from the parent through `next`, one more hop: `Item.list.then(TodoList.owner)`.
    public func then<Next>(_ next: ToOne<Parent, Next>) -> ToOnePath<Child, Next> {
        ToOnePath(links: [link, next.link])
    }
}
