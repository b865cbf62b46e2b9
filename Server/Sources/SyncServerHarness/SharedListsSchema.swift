/// The schema that the sharing tests and the `sharing` benchmark sync: lists (the share roots);
/// their items, each in a list or under another item (a sub-item: its own parent, or in a loop,
/// it is under no list); and the items' tags, two hops and more under a list.
public enum SharedListsSchema {
    /// The tables, as the one migration creates them.
    public static let tablesSQL = """
        CREATE TABLE lists(id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT '');
        CREATE TABLE items(
            id TEXT PRIMARY KEY, list TEXT REFERENCES lists(id) ON DELETE CASCADE, parent TEXT REFERENCES items(id) ON DELETE CASCADE,
            title TEXT NOT NULL DEFAULT '');
        CREATE TABLE tags(id TEXT PRIMARY KEY, item TEXT REFERENCES items(id) ON DELETE CASCADE, label TEXT);
        """
    /// The synced tables.
    public static let tables: Set<String> = ["lists", "items", "tags"]
    /// The server options that share lists with their items and the items' tags.
    public static let sharingOptions = ["--share-roots", "lists", "--share-paths", "items.list=lists,items.parent=items,tags.item=items"]
    /// The server options that let devices subscribe to their own lists (`mine`), to one list
    /// with its items and tags (`list`, by key), and to the lists with a title (`titled`).
    public static let subscriptionOptions = ["--subscriptions", "mine=own-roots,list=root:lists,titled=rows:lists.title"]
}
