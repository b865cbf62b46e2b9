/// A shareable row as the server names it: its table as the sharing declaration spells it and
/// its key as `sync_changes` stores it (``StoredJSON``).
struct SharedRowRef: Hashable, Sendable {
    let table: String
    let key: String

    /// The row's name as a root: `table:key` (a root table's name holds no `:`).
    var rootName: String { table + ":" + key }

    init(table: String, key: String) {
        self.table = table
        self.key = key
    }

    /// The root row a root's name names, or nil for another text.
    init?(rootName: String) {
        guard let colon = rootName.firstIndex(of: ":"), colon != rootName.startIndex else { return nil }
        self.init(table: String(rootName[..<colon]), key: String(rootName[rootName.index(after: colon)...]))
    }
}

/// Where a shareable row is: whose data it is in, its parent, and the root its parents lead to
/// (`nil`: none; then only its owner holds it).
struct RowPlace: Sendable {
    var owner: Int64
    var parent: SharedRowRef?
    var root: String?
}

/// A share's name, as the server gives it to devices: `owner/root`.
struct ShareName: Hashable, Sendable {
    let owner: Int64
    let root: String

    var text: String { "\(owner)/\(root)" }

    init(owner: Int64, root: String) {
        self.owner = owner
        self.root = root
    }

    /// The share a device names, or nil for a text that is not a share's name.
    init?(parsing text: String) {
        guard let slash = text.firstIndex(of: "/"), let owner = Int64(text[..<slash]), owner > 0 else { return nil }
        let root = String(text[text.index(after: slash)...])
        guard SharedRowRef(rootName: root) != nil else { return nil }
        self.init(owner: owner, root: root)
    }
}
