@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// The merge rule written independently of the store, for the fixture's schema: what every
/// device must hold once it has applied `changes`, whatever their order.
///
/// Per cell the write with the greatest (timestamp, device) wins; per row the latest delete is
/// its tombstone. A row is alive when it has cells for its `NOT NULL` columns and its newest
/// cell is strictly newer than its tombstone. Lists are present when alive; items when alive
/// and their list is present (`ON DELETE CASCADE`); tags when alive, with `item_id` NULL when
/// their item is not present (`ON DELETE SET NULL`). Notes are present when alive and their
/// parent note is present: the largest set of alive notes closed under that (so the notes of a
/// parent loop are present together when all are alive), found by striking out notes whose
/// parent is not in the set until none is; `see_also` is NULL when its note is not present.
struct SyncMergeModel {
    private struct Version: Comparable {
        let timestamp: Int64
        let device: [UInt8]
        let value: DatabaseValue

        static func < (lhs: Version, rhs: Version) -> Bool {
            if lhs.timestamp != rhs.timestamp { return lhs.timestamp < rhs.timestamp }
            return lhs.device.lexicographicallyPrecedes(rhs.device)
        }
    }

    private struct RowState {
        var cells: [String: Version] = [:]
        var tombstone: Version?
    }

    /// Each table's rows by key, told apart by bytes.
    private var rows: [String: [TextKey: RowState]] = [:]

    init(changes: [SyncChange]) {
        for change in changes {
            guard case .text(let text) = change.key else { continue }
            let key = TextKey(text)
            let version = Version(timestamp: change.timestamp.rawValue, device: Array(change.id.device.utf8), value: .null)
            var state = rows[change.table, default: [:]][key, default: RowState()]
            switch change.operation {
            case .set(let column, let value):
                let candidate = Version(timestamp: version.timestamp, device: version.device, value: value)
                if state.cells[column].map({ $0 < candidate }) ?? true { state.cells[column] = candidate }
            case .delete:
                if state.tombstone.map({ $0 < version }) ?? true { state.tombstone = version }
            }
            rows[change.table, default: [:]][key] = state
        }
    }

    private static let required: [String: [String]] = ["lists": ["name"], "items": ["list_id"], "tags": [], "notes": []]
    private static let columns: [String: [String]] = [
        "lists": ["name", "color"], "items": ["list_id", "title", "done", "score"], "tags": ["item_id", "label"],
        "notes": ["parent_id", "see_also", "body"],
    ]

    private func alive(_ table: String) -> [TextKey: [String: DatabaseValue]] {
        var result: [TextKey: [String: DatabaseValue]] = [:]
        for (key, state) in rows[table] ?? [:] {
            guard let newest = state.cells.values.max(), Self.required[table, default: []].allSatisfy({ state.cells[$0] != nil })
            else { continue }
            if let tombstone = state.tombstone, !(tombstone < newest) { continue }
            var values: [String: DatabaseValue] = ["id": .text(key.description)]
            for column in Self.columns[table, default: []] { values[column] = state.cells[column]?.value ?? .null }
            result[key] = values
        }
        return result
    }

    /// The rows each table must hold, by key, each as `[column: value]`.
    func expectedTables() -> [String: [TextKey: [String: DatabaseValue]]] {
        let lists = alive("lists")
        let items = alive("items").filter { _, item in
            guard case .text(let list)? = item["list_id"] else { return false }
            return lists[TextKey(list)] != nil
        }
        let tags = alive("tags").mapValues { tag in
            var tag = tag
            if let item = tag["item_id"].flatMap(Self.itemKey), items[item] == nil { tag["item_id"] = .null }
            return tag
        }
        var notes = alive("notes")
        var struckOut = true
        while struckOut {
            struckOut = false
            for (key, note) in notes {
                guard case .text(let parent)? = note["parent_id"], notes[TextKey(parent)] == nil else { continue }
                notes[key] = nil
                struckOut = true
            }
        }
        notes = notes.mapValues { note in
            var note = note
            if case .text(let other)? = note["see_also"], notes[TextKey(other)] == nil { note["see_also"] = .null }
            return note
        }
        return ["lists": lists, "items": items, "tags": tags, "notes": notes]
    }

    /// The item key a tag's `item_id` refers to, as SQLite's foreign key matches it: the
    /// `NUMERIC` column holds the key "7" as the number 7, and "7.5" as 7.5.
    private static func itemKey(_ value: DatabaseValue) -> TextKey? {
        switch value {
        case .text(let key): TextKey(key)
        case .integer(let number): TextKey(String(number))
        case .real(let number): TextKey(String(number))
        default: nil
        }
    }
}
