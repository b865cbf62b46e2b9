import SQLiteStoreSyncProtocol

/// What each account of ``SharedLists``' schema may hold, and what its devices must show,
/// computed from the changes the server stored in each account's data: written from the sync
/// article's sharing rules, not from the server's code.
///
/// - Each account's rows merge by the rule of the article: a cell holds its latest write by
///   (clock, device id's bytes), and a row is alive when its latest event is a write.
/// - A row's root is found by following, from the row, its parent: a list is its own root; an
///   item's parent is its list, or without one its parent item; a tag's is its item. The walk
///   ends with no root at a row the account's data never held, or at a row met twice (a loop).
/// - An account may read its own data and the rows whose root is a list shared with it.
/// - A device shows the readable rows that are alive and whose parents it shows (each foreign
///   key: `ON DELETE CASCADE`): the largest such set, so that rows in a loop show together.
struct SharedDataOracle {
    struct RowID: Hashable, Comparable {
        let table: String
        let key: String

        static func < (a: RowID, b: RowID) -> Bool { (a.table, a.key) < (b.table, b.key) }
    }

    struct Row {
        var cells: [String: SyncWireValue] = [:]
        var isAlive = false

        func link(_ column: String) -> String? { if case .text(let key)? = cells[column] { key } else { nil } }
    }

    /// A list shared by its owner: the owner's name and the list's key.
    struct Share: Hashable {
        let owner: String
        let list: String
    }

    /// A subscription of a device, as ``SharedListsSchema/subscriptionOptions`` declares them.
    enum Subscription: Hashable {
        /// The lists of the account's own data, with everything under them.
        case mine
        /// The list with this key, with everything under it, in any data the account reads.
        case list(String)
        /// The lists with this title, without what is under them.
        case titled(String)
    }

    /// Each account's rows, by account name.
    let data: [String: [RowID: Row]]
    /// The changes stored in each account's data, by account name.
    let changes: [String: [SyncWireChange]]

    /// The rows that `changes` (by account name) leave in each account's data.
    init(changes: [String: [SyncWireChange]]) {
        self.changes = changes
        var data: [String: [RowID: Row]] = [:]
        for (account, changes) in changes {
            var rows: [RowID: Row] = [:]
            let replay = changes.sorted { a, b in
                if a.hlc != b.hlc { return a.hlc < b.hlc }
                if a.device != b.device { return Array(a.device.utf8).lexicographicallyPrecedes(Array(b.device.utf8)) }
                return a.column != nil && b.column == nil
            }
            for change in replay {
                guard case .text(let key) = change.key else { continue }
                let id = RowID(table: change.table, key: key)
                var row = rows[id] ?? Row()
                if case .set(let column, let value) = change.operation {
                    row.cells[column] = value
                    row.isAlive = true
                } else {
                    row.isAlive = false
                }
                rows[id] = row
            }
            data[account] = rows
        }
        self.data = data
    }

    /// The key of the list that is the root of `row` in `account`'s data, if any.
    func root(of row: RowID, in account: String) -> String? {
        var current = row
        var seen: Set<RowID> = []
        while seen.insert(current).inserted, let held = data[account]?[current] {
            if current.table == "lists" { return current.key }
            let parent: RowID? =
                switch current.table {
                case "items":
                    held.link("list").map { RowID(table: "lists", key: $0) } ?? held.link("parent").map { RowID(table: "items", key: $0) }
                default: held.link("item").map { RowID(table: "items", key: $0) }
                }
            guard let parent else { return nil }
            current = parent
        }
        return nil
    }

    /// The rows from `row` up its parents in `account`'s data, with their path cells: for diagnostics.
    func chain(of row: RowID, in account: String) -> [String] {
        var lines: [String] = []
        var current: RowID? = row
        var seen: Set<RowID> = []
        while let id = current, seen.insert(id).inserted {
            guard let held = data[account]?[id] else {
                lines.append("\(id.table) \(id.key): not held")
                break
            }
            lines.append(
                "\(id.table) \(id.key): list \(held.link("list") ?? "-") parent \(held.link("parent") ?? "-") item \(held.link("item") ?? "-")"
            )
            current =
                switch id.table {
                case "items":
                    held.link("list").map { RowID(table: "lists", key: $0) } ?? held.link("parent").map { RowID(table: "items", key: $0) }
                case "tags": held.link("item").map { RowID(table: "items", key: $0) }
                default: nil
                }
        }
        return lines
    }

    /// The rows `account` may read, with the account whose data holds each.
    func readable(by account: String, shares: [Share: [String: SyncShareRole]]) -> [RowID: (owner: String, row: Row)] {
        var readable: [RowID: (owner: String, row: Row)] = [:]
        for (owner, rows) in data {
            for (id, row) in rows {
                if owner == account || root(of: id, in: owner).map({ shares[Share(owner: owner, list: $0)]?[account] != nil }) == true {
                    readable[id] = (owner, row)
                }
            }
        }
        return readable
    }

    /// Whether `subscription` of a device of `account` covers `row` of `owner`'s data.
    func covers(_ subscription: Subscription, _ id: RowID, of owner: String, _ row: Row, account: String) -> Bool {
        switch subscription {
        case .mine: owner == account && root(of: id, in: owner) != nil
        case .list(let key): root(of: id, in: owner) == key
        case .titled(let title): id.table == "lists" && row.cells["title"] == .text(title)
        }
    }

    /// The rows a device of `account` with `subscriptions` may hold: those its account may
    /// read, and of them, when it has subscriptions, those one covers.
    func held(by account: String, shares: [Share: [String: SyncShareRole]], subscriptions: Set<Subscription>) -> [RowID: (
        owner: String, row: Row
    )] {
        let readable = readable(by: account, shares: shares)
        guard !subscriptions.isEmpty else { return readable }
        return readable.filter { id, held in
            subscriptions.contains { covers($0, id, of: held.owner, held.row, account: account) }
        }
    }

    /// What a device of `account` with `subscriptions` must show, table by table, as
    /// ``SharedLists/dump(_:_:)`` writes it (`withNotes`: a device on the newer schema, whose
    /// items have a note).
    func expectedDumps(
        for account: String, shares: [Share: [String: SyncShareRole]], subscriptions: Set<Subscription> = [], withNotes: Bool = false
    ) -> [String: [String]] {
        var shown = held(by: account, shares: shares, subscriptions: subscriptions).filter { $0.value.row.isAlive }.mapValues(\.row)
        var struckOut = true
        while struckOut {
            struckOut = false
            for (id, row) in shown {
                let parents: [RowID] =
                    switch id.table {
                    case "items":
                        [
                            row.link("list").map { RowID(table: "lists", key: $0) },
                            row.link("parent").map { RowID(table: "items", key: $0) },
                        ]
                        .compactMap { $0 }
                    case "tags": [row.link("item").map { RowID(table: "items", key: $0) }].compactMap { $0 }
                    default: []
                    }
                if parents.contains(where: { shown[$0] == nil }) {
                    shown[id] = nil
                    struckOut = true
                }
            }
        }
        func quoted(_ value: SyncWireValue?) -> String {
            if case .text(let text)? = value { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" } else { "NULL" }
        }
        var dumps: [String: [String]] = ["lists": [], "items": [], "tags": []]
        for (id, row) in shown.sorted(by: { $0.key < $1.key }) {
            let line =
                switch id.table {
                case "lists": "\(quoted(.text(id.key)))|\(quoted(row.cells["title"] ?? .text("")))"
                case "items":
                    "\(quoted(.text(id.key)))|\(quoted(row.cells["list"]))|\(quoted(row.cells["parent"]))|\(quoted(row.cells["title"] ?? .text("")))"
                        + (withNotes ? "|\(quoted(row.cells["note"]))" : "")
                default: "\(quoted(.text(id.key)))|\(quoted(row.cells["item"]))|\(quoted(row.cells["label"]))"
                }
            dumps[id.table, default: []].append(line)
        }
        return dumps
    }
}
