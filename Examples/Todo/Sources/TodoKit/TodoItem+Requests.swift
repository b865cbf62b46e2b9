import SQLiteStore

extension TodoItem {
    /// Every item, sectioned by its list's name: in a list, open items first, then done ones,
    /// each by title. Renaming a list moves its section; lists that share a name share a section.
    public static let sectionedByList = StoreRequest<TodoItem>()
        .order { [TodoItem.list.name.ascending, $0.done.ascending, $0.title.ascending] }
        .sectioned { _ in TodoItem.list.name }
}

extension TodoList {
    /// Every list, by name.
    public static let byName = StoreRequest<TodoList>().order { [$0.name.ascending] }
}
