import SQLiteStore
import SQLiteStoreSyncProtocol

/// The merge rule of the SyncBetweenDevices article, written from the article and not from the
/// library, for the schema of ``SyncedStores``: the rows every device must hold once it has
/// applied `changes`, whatever their order.
///
/// It replays the changes in the order of their stamps, (clock, device id's bytes), a delete
/// after a write of the same stamp: a cell holds the last value written to it, and a row is
/// present when its last event is a write, not a delete (an update later than the delete
/// brings the row back). A tag whose item is not present is not present either (`ON DELETE
/// CASCADE`); a title never written is the column's default, `''`. A note whose parent note is
/// not present is not present either: the present notes are the largest set of alive notes
/// closed under that, found by striking out notes whose parent is not in the set until none is,
/// so that notes that are their own parent or each other's (a parent loop) are present
/// together when all are alive.
struct SyncMergeModel {
    private struct Row {
        var cells: [String: SyncWireValue] = [:]
        var isPresent = false
    }

    /// Rows by table, then by key.
    private var rows: [String: [SyncWireValue: Row]] = [:]

    init(changes: [SyncWireChange]) {
        let replay = changes.sorted { a, b in
            if a.hlc != b.hlc { return a.hlc < b.hlc }
            if a.device != b.device { return Array(a.device.utf8).lexicographicallyPrecedes(Array(b.device.utf8)) }
            return !a.isDelete && b.isDelete
        }
        for change in replay {
            var row = rows[change.table, default: [:]][change.key, default: Row()]
            switch change.operation {
            case .set(let column, let value):
                row.cells[column] = value
                row.isPresent = true
            case .delete:
                row.isPresent = false
            }
            rows[change.table, default: [:]][change.key] = row
        }
    }

    /// The cells of the rows of `table` the rule keeps present, by key (a table that no
    /// foreign key or parent ties to another: every alive row).
    func presentRows(of table: String) -> [SyncWireValue: [String: SyncWireValue]] {
        (rows[table] ?? [:]).filter { $0.value.isPresent }.mapValues(\.cells)
    }

    /// A store without sync holding exactly the rows the rule gives, to compare with the
    /// clients' tables through ``SyncedStores/dump(_:table:)``.
    func expectedStore() throws -> Store {
        let store = try Store.inMemory()
        let items = (rows["items"] ?? [:]).filter { $0.value.isPresent }
        let tags = (rows["tags"] ?? [:]).filter { _, tag in
            guard tag.isPresent else { return false }
            let item = tag.cells["item"] ?? .null
            return item == .null || items[item] != nil
        }
        var notes = (rows["notes"] ?? [:]).filter { $0.value.isPresent }
        var struckOut = true
        while struckOut {
            struckOut = false
            for (key, note) in notes {
                let parent = note.cells["parent"] ?? .null
                guard parent != .null, notes[parent] == nil else { continue }
                notes[key] = nil
                struckOut = true
            }
        }
        try store.write { db in
            try db.execute(script: SyncedStores.schema)
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")  // notes' parents in any order, loops too
            for (key, note) in notes {
                try db.execute(
                    sql: "INSERT INTO notes(id, parent, body) VALUES (?, ?, ?)",
                    arguments: [
                        DatabaseValue(key), DatabaseValue(note.cells["parent"] ?? .null), DatabaseValue(note.cells["body"] ?? .null),
                    ])
            }
            for (key, item) in items {
                try db.execute(
                    sql: "INSERT INTO items(id, title, n, note) VALUES (?, ?, ?, ?)",
                    arguments: [
                        DatabaseValue(key), DatabaseValue(item.cells["title"] ?? .text("")), DatabaseValue(item.cells["n"] ?? .null),
                        DatabaseValue(item.cells["note"] ?? .null),
                    ])
            }
            for (key, tag) in tags {
                try db.execute(
                    sql: "INSERT INTO tags(id, item, label) VALUES (?, ?, ?)",
                    arguments: [DatabaseValue(key), DatabaseValue(tag.cells["item"] ?? .null), DatabaseValue(tag.cells["label"] ?? .null)])
            }
        }
        return store
    }
}

extension SyncWireChange {
    fileprivate var isDelete: Bool { if case .delete = operation { true } else { false } }
}
