/// One section of the item list at one moment: a list's name and its items, in order.
public struct TodoSection: Equatable, Sendable {
    /// The name of the list, which heads the section.
    public var name: String
    /// The list's items, open ones first.
    public var items: [TodoItem]

    /// A section named `name` holding `items`.
    public init(name: String, items: [TodoItem]) {
        self.name = name
        self.items = items
    }
}
