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

/// The parent key one path of a row names (`nil`: a `NULL`) and the stamp of the change that set
/// it: a path holds the value of its latest change by the merge rule (greatest clock, then device
/// id by bytes), however the changes arrive, as every device's cell does.
struct RowLink: Codable, Sendable, Hashable {
    var key: String?
    var hlc: Int64
    var device: String

    /// Whether this link is the later of the two by the merge rule.
    func supersedes(_ other: RowLink) -> Bool {
        if hlc != other.hlc { return hlc > other.hlc }
        return Array(other.device.utf8).lexicographicallyPrecedes(Array(device.utf8))
    }

    /// The later of `link` and `other` (`nil`: never set).
    static func latest(_ link: RowLink?, _ other: RowLink) -> RowLink {
        guard let link, !other.supersedes(link) else { return other }
        return link
    }
}

/// Where a shareable row is: whose data it is in, the link of each of its paths (in the order of
/// its table's paths, `nil` for one never set), and its parent (its first path's with a key).
struct RowPlace: Sendable {
    var owner: Int64
    var links: [RowLink?]
    var parent: SharedRowRef?
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
