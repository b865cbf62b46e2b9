import SQLiteStoreCore
import SQLiteStoreViewModels

/// One write of the demo app, run by its `Command`.
enum DemoEdit: Sendable, CustomStringConvertible {
    case add(title: String, category: String)
    case rename(id: Int64, title: String)
    case move(id: Int64, category: String, position: Int?)
    case complete(id: Int64)
    case delete(id: Int64)
    case renameList(id: Int64, name: String)

    /// Writes the edit to the items of list `listID` (or renames the list it names); throws
    /// when the item or list is not there.
    func apply(in db: Database, listID: Int64) throws {
        switch self {
        case .add(let title, let category):
            let position =
                try db.fetchValue(
                    Int.self, sql: "SELECT coalesce(max(position), 0) + 1 FROM item WHERE list_id = ? AND category = ?",
                    arguments: [listID, category]) ?? 1
            try db.execute(
                sql: "INSERT INTO item (list_id, title, category, position) VALUES (?, ?, ?, ?)",
                arguments: [listID, title, category, position])
        case .rename(let id, let title):
            try db.execute(sql: "UPDATE item SET title = ? WHERE id = ? AND list_id = ?", arguments: [title, id, listID])
        case .move(let id, let category, let position):
            try db.execute(
                sql: "UPDATE item SET category = ?, position = coalesce(?, position) WHERE id = ? AND list_id = ?",
                arguments: [category, position, id, listID])
        case .complete(let id):
            try db.execute(sql: "UPDATE item SET done = 1 WHERE id = ? AND list_id = ?", arguments: [id, listID])
        case .delete(let id):
            try db.execute(sql: "DELETE FROM item WHERE id = ? AND list_id = ?", arguments: [id, listID])
        case .renameList(let id, let name):
            try db.execute(sql: "UPDATE list SET name = ? WHERE id = ?", arguments: [name, id])
        }
        if case .add = self { return }
        guard db.changesCount > 0 else {
            if case .renameList(let id, _) = self { throw StoreError(code: .notFound, message: "there is no list #\(id)") }
            throw StoreError(code: .notFound, message: "the list has no item #\(id ?? 0)")
        }
    }

    private var id: Int64? {
        switch self {
        case .add, .renameList: nil
        case .rename(let id, _), .move(let id, _, _), .complete(let id), .delete(let id): id
        }
    }

    var description: String {
        switch self {
        case .add(let title, let category): "add \"\(title)\" to \(category)"
        case .rename(let id, let title): "rename #\(id) to \"\(title)\""
        case .move(let id, let category, let position): "move #\(id) to \(category)\(position.map { " at position \($0)" } ?? "")"
        case .complete(let id): "mark #\(id) done"
        case .delete(let id): "delete #\(id)"
        case .renameList(let id, let name): "rename list #\(id) to \"\(name)\""
        }
    }
}
