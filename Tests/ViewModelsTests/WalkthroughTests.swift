// The code of Docs/ViewModels.md, kept compiling and passing: edit both together.
import Foundation
import Observation
import Store
import Testing
import ViewModels

// 1. The model: a Codable value stored as one row.
struct Note: Model {
    static let tableName = "note"
    var id: Int64?
    var text: String
    var pinned: Bool
}

// 2. The cell view model: derived, display-ready properties of one stored note.
@MainActor
@Observable
final class NoteCellViewModel: StoreViewModel<Note> {
    var title = ""
    var badge = ""

    override init(store: Store, id: Int64) {
        super.init(store: store, id: id)
        bindModel(\.text) { cell, text in cell.title = text }
        bindModel(\.pinned) { cell, pinned in cell.badge = pinned ? "📌" : "" }
    }
}

@MainActor
@Suite("ViewModels walk-through")
struct WalkthroughTests {
    @Test func modelStoreDataSourceCellViewModelListView() async throws {
        let directory = try TemporaryDirectory()
        // 3. The store, with the table.
        let store = try directory.makeStore(schema: "CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT NOT NULL, pinned INTEGER NOT NULL)")
        let ids = try await store.write { db in
            try ["Buy milk", "Call Ada"].map { text in
                var note = Note(text: text, pinned: false)
                try db.insert(&note)
                return note.id ?? -1
            }
        }

        // 4. The data source: one cell view model per note, each started.
        let cells = try ids.map { id in
            let cell = NoteCellViewModel(store: store, id: id)
            try cell.start()
            return cell
        }
        let notes = MutableArrayDataSource(items: cells)

        // 5. The list view: here the in-memory one; a UIKit table or a SwiftUI list in an app.
        let list = InMemoryListView(dataSource: notes)
        #expect(list.lines { "\($0.badge)\($0.title)" } == ["[section 0]", "  Buy milk", "  Call Ada"])

        // Another part of the app writes; the cell's derived properties follow.
        try await store.write { db in
            try db.execute(sql: "UPDATE note SET pinned = 1 WHERE id = ?", arguments: [ids[1]])
        }
        await waitUntil("the pin arrives") { cells[1].badge == "📌" }

        // Deleting through the cell view model; the data source drops the row in one batch.
        try await cells[0].delete()
        await waitUntil("the deletion arrives") { cells[0].isDeleted }
        notes.remove(at: IndexPath(row: 0, section: 0))
        #expect(list.lines { "\($0.badge)\($0.title)" } == ["[section 0]", "  📌Call Ada"])
    }
}
