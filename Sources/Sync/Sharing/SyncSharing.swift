import SQLiteStoreCore

/// Which rows of an app's data can be shared with other accounts, and how rows belong to them:
/// a sync server's declaration (see "Sharing" in <doc:SyncBetweenDevices>).
///
/// A *root* is a row of a root table (`lists`, `folders`) that its owner shares with other
/// accounts as a whole. A row belongs to a root through *paths*, foreign key columns followed
/// to the parent row: `items.list_id → lists`, `notes.folder_id → folders`, `notes.parent_id →
/// notes`. A row's parent is the one its first path with a value names, in the order of
/// ``paths``; its root is the root row its parents lead to, through any number of them. A row
/// whose parents end nowhere, or loop, belongs to no root and is shared with no one.
///
/// ```swift
/// let sharing = SyncSharing(roots: ["lists"], paths: [.init(table: "items", column: "list_id", parent: "lists")])
/// ```
public struct SyncSharing: Sendable, Hashable {
    /// A foreign key column that places a row under its parent.
    public struct Path: Sendable, Hashable {
        /// The child table.
        public var table: String
        /// The child's column that holds the parent's key.
        public var column: String
        /// The parent table: a root table, or a table with paths of its own.
        public var parent: String

        /// A path from its parts.
        public init(table: String, column: String, parent: String) {
            self.table = table.sqliteIdentifierFolded
            self.column = column
            self.parent = parent.sqliteIdentifierFolded
        }

        /// A path spelled `table.column=parent`, as the server's command line takes it.
        ///
        /// - Throws: ``SyncSharingError`` for another spelling.
        public init(parsing spelled: String) throws {
            let sides = spelled.split(separator: "=", omittingEmptySubsequences: false)
            guard sides.count == 2, let dot = sides[0].firstIndex(of: "."), dot != sides[0].startIndex,
                sides[0].index(after: dot) != sides[0].endIndex, !sides[1].isEmpty
            else { throw SyncSharingError("a path is spelled table.column=parent, not \"\(spelled)\"") }
            self.init(
                table: String(sides[0][..<dot]), column: String(sides[0][sides[0].index(after: dot)...]), parent: String(sides[1]))
        }
    }

    /// The root tables, their ASCII letters lowercased.
    public var roots: Set<String>
    /// The paths, in the order a row's are tried: its first with a value names its parent.
    public var paths: [Path]

    /// Sharing of the rows of `roots` and of the rows that `paths` place under them.
    public init(roots: Set<String>, paths: [Path] = []) {
        self.roots = Set(roots.map(\.sqliteIdentifierFolded))
        self.paths = paths
    }

    /// `table`'s name as the declaration holds it: its ASCII letters lowercased, as SQLite
    /// compares table names.
    public func canonicalName(of table: String) -> String { table.sqliteIdentifierFolded }

    /// The paths of `table`, in order.
    public func paths(of table: String) -> [Path] {
        let folded = table.sqliteIdentifierFolded
        return paths.filter { $0.table == folded }
    }

    /// Whether rows of `table` can be shared: a root table or a table with paths.
    public func shares(_ table: String) -> Bool {
        let folded = table.sqliteIdentifierFolded
        return roots.contains(folded) || paths.contains { $0.table == folded }
    }

    /// Checks the declaration against the synced tables of `schema`.
    ///
    /// - Throws: ``SyncSharingError`` naming a root or a path that is not a synced table or
    ///   column, a root table with a path (roots are not nested), a parent that is neither a
    ///   root nor a table with paths, a column with two paths, or a root table's name holding `:`.
    public func check(against schema: SyncSchema) throws {
        guard !roots.isEmpty else { throw SyncSharingError("sharing needs at least one root table") }
        for root in roots.sorted() {
            guard schema.refusal(table: root, column: nil) == nil else { throw SyncSharingError("root table \"\(root)\" is not synced") }
            guard !root.contains(":") else { throw SyncSharingError("a root table's name cannot hold \":\" (\"\(root)\")") }
        }
        for path in paths {
            if let reason = schema.refusal(table: path.table, column: path.column) {
                throw SyncSharingError("path \(path.table).\(path.column): \(reason)")
            }
            guard paths.filter({ $0.table == path.table && $0.column == path.column }).count == 1 else {
                throw SyncSharingError("column \(path.table).\(path.column) has more than one path")
            }
            guard !roots.contains(path.table) else {
                throw SyncSharingError("root table \"\(path.table)\" cannot have a path: roots are not nested")
            }
            guard roots.contains(path.parent) || paths.contains(where: { $0.table == path.parent }) else {
                throw SyncSharingError(
                    "path \(path.table).\(path.column) leads to \"\(path.parent)\", neither a root nor a table with paths")
            }
        }
    }
}

/// A sharing declaration that does not fit the synced schema.
public struct SyncSharingError: Error, CustomStringConvertible {
    /// What is wrong.
    public let description: String

    init(_ description: String) { self.description = description }
}
