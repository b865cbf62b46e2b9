import SQLiteStoreCore

/// A subset of an account's rows that devices may subscribe to: a sync server's declaration
/// (see "Subscriptions" in <doc:SyncBetweenDevices>). A device subscribes by the subset's name
/// with a parameter; the server binds the parameter as a value and never takes SQL from a device.
///
/// ```swift
/// let subsets = [
///     SyncSubset(name: "mine", kind: .ownRoots),
///     SyncSubset(name: "list", kind: .root(table: "lists")),
///     SyncSubset(name: "items_in", kind: .rows(table: "items", column: "list_id")),
/// ]
/// ```
public struct SyncSubset: Sendable, Hashable {
    /// Which rows a subset holds.
    public enum Kind: Sendable, Hashable {
        /// The roots of the account's own data and every row under them (no parameter).
        case ownRoots
        /// The root row of `table` whose key is the parameter, and every row under it: of the
        /// account's own data, or of a share the account is a member of.
        case root(table: String)
        /// The rows of `table` whose `column` holds the parameter, among those the account may read.
        case rows(table: String, column: String)
    }

    /// The name devices subscribe by.
    public var name: String
    /// Which rows it holds.
    public var kind: Kind

    /// A subset from its parts.
    public init(name: String, kind: Kind) {
        self.name = name
        self.kind =
            switch kind {
            case .ownRoots: .ownRoots
            case .root(let table): .root(table: table.sqliteIdentifierFolded)
            case .rows(let table, let column): .rows(table: table.sqliteIdentifierFolded, column: column)
            }
    }

    /// A subset spelled `name=own-roots`, `name=root:table` or `name=rows:table.column`, as the
    /// server's command line takes it.
    ///
    /// - Throws: ``SyncSharingError`` for another spelling.
    public init(parsing spelled: String) throws {
        let sides = spelled.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard sides.count == 2, !sides[0].isEmpty else {
            throw SyncSharingError(
                "a subscription is spelled name=own-roots, name=root:table or name=rows:table.column, not \"\(spelled)\"")
        }
        let (name, kind) = (String(sides[0]), sides[1])
        if kind == "own-roots" {
            self.init(name: name, kind: .ownRoots)
        } else if kind.hasPrefix("root:"), kind.count > 5 {
            self.init(name: name, kind: .root(table: String(kind.dropFirst(5))))
        } else if kind.hasPrefix("rows:"), let dot = kind.firstIndex(of: "."),
            dot > kind.index(kind.startIndex, offsetBy: 5), kind.index(after: dot) != kind.endIndex
        {
            self.init(
                name: name,
                kind: .rows(
                    table: String(kind[kind.index(kind.startIndex, offsetBy: 5)..<dot]), column: String(kind[kind.index(after: dot)...])))
        } else {
            throw SyncSharingError("subscription \"\(name)\": \"\(kind)\" is not own-roots, root:table or rows:table.column")
        }
    }

    /// Whether a device names a parameter when it subscribes.
    public var takesParameter: Bool {
        if case .ownRoots = kind { false } else { true }
    }

    /// Whether `column` of `table` is the column a `rows` subset looks at, their names compared
    /// as SQLite compares them (ASCII letters in either case).
    public func looksAt(table: String, column: String) -> Bool {
        guard case .rows(let subsetTable, let subsetColumn) = kind else { return false }
        return table.sqliteIdentifierFolded == subsetTable && column.sqliteIdentifierFolded == subsetColumn.sqliteIdentifierFolded
    }

    /// Checks the subsets against the synced tables of `schema` and the roots of `sharing`.
    ///
    /// - Throws: ``SyncSharingError`` naming a subset whose name is empty, longer than 256 bytes
    ///   or taken twice, whose table or column is not synced, or whose roots the server does not
    ///   declare (`ownRoots` and `root` need sharing, with `table` one of its roots).
    public static func check(_ subsets: [SyncSubset], against schema: SyncSchema, sharing: SyncSharing?) throws {
        for subset in subsets {
            guard !subset.name.isEmpty, subset.name.utf8.count <= 256 else {
                throw SyncSharingError("a subscription's name is 1 to 256 bytes (\"\(subset.name)\")")
            }
            guard subsets.filter({ $0.name == subset.name }).count == 1 else {
                throw SyncSharingError("subscription \"\(subset.name)\" is declared twice")
            }
            switch subset.kind {
            case .ownRoots:
                guard sharing != nil else { throw SyncSharingError("subscription \"\(subset.name)\": own-roots needs share roots") }
            case .root(let table):
                guard let sharing, sharing.roots.contains(table) else {
                    throw SyncSharingError("subscription \"\(subset.name)\": \"\(table)\" is not a share root")
                }
            case .rows(let table, let column):
                if let reason = schema.refusal(table: table, column: column) {
                    throw SyncSharingError("subscription \"\(subset.name)\": \(table).\(column): \(reason)")
                }
            }
        }
    }
}
