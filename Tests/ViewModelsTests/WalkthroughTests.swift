// The walk-through of the MVVM article (SQLiteStoreViewModels.docc/MVVM.md), kept compiling
// and passing: edit both together.
import Foundation
import Observation
import SQLiteStoreCore
import SQLiteStoreResults
import SQLiteStoreViewModels
import Testing

// 1. The model: a Codable value stored as one row.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct Note: StoreModel {
    static let tableName = "note"
    var id: Int64?
    var text: String
    var pinned: Bool
}

// 5. The cell view model: display-ready values derived from one note.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct NoteCellViewModel {
    var title: String
    var badge: String

    init(_ note: Note) {
        title = note.text
        badge = note.pinned ? "📌" : ""
    }

    /// Shown for a row whose note cannot be read (deleted a moment ago).
    static let placeholder = NoteCellViewModel(Note(text: "…", pinned: false))
}

// 3. The screen's view model: live results, and a command that does not capture it.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
@Observable
final class NotesViewModel {
    let store: Store
    let notes: LiveResults<Note>
    @ObservationIgnored private(set) lazy var pin: Command<Int64, Void> = Command(owner: self) { screen, id in
        try await screen.store.write { db in
            try db.execute(sql: "UPDATE note SET pinned = 1 WHERE id = ?", arguments: [id])
        }
    }

    init(store: Store) {
        self.store = store
        notes = LiveResults(StoreRequest<Note>().order(Column("text").ascending), in: store)
    }

    var summary: String { "\(notes.count) notes" }
}

// A detail screen's view model, bound to one stored note.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
@Observable
final class NoteDetailViewModel: StoreViewModel<Note> {
    var heading = ""

    override init(store: Store, id: Int64) {
        super.init(store: store, id: id)
        bindModel(\.text) { detail, text in detail.heading = text.uppercased() }
    }
}

@MainActor
@Suite("ViewModels walk-through")
struct WalkthroughTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func modelStoreFetchedDataSourceCellViewModelListView() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.sqlite")
        // 2. The store, with the table.
        let store = try Store(path: path)
        let ids = try await store.write { db in
            try db.execute(sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT NOT NULL, pinned INTEGER NOT NULL)")
            return try ["Buy milk", "Call Ada"].map { text in
                var note = Note(text: text, pinned: false)
                try db.insert(&note)
                return note.id ?? -1
            }
        }

        // 3. The screen's view model: live results.
        let screen = NotesViewModel(store: store)
        try await screen.notes.waitUntilCurrent()  // the first values are read
        #expect(screen.summary == "2 notes" && screen.notes[1].text == "Call Ada")
        _ = await screen.pin.execute(ids[1])
        try await screen.notes.waitUntilCurrent()  // read your writes, no polling
        #expect(screen.notes[1].pinned == true)
        try await store.write { db in try db.execute(sql: "UPDATE note SET pinned = 0") }  // test only: the list below starts unpinned

        // 4. The fetched data source: live results of a request, one cell view model per note.
        let notes = FetchedDataSource(
            store: store,
            request: StoreRequest<Note>().order(Column("text").ascending),
            placeholder: { _ in NoteCellViewModel.placeholder },
            makeViewModel: NoteCellViewModel.init
        )
        try notes.performFetch()

        // 6. The list view: here the in-memory one; a UIKit table or a SwiftUI list in an app.
        let list = InMemoryListView(dataSource: notes)
        let lines = { list.lines { "\($0.badge)\($0.title)" } }
        #expect(lines() == ["[section 0]", "  Buy milk", "  Call Ada"])

        // Another part of the app writes; the list applies the change set in one batch.
        try await store.write { db in
            try db.execute(sql: "UPDATE note SET pinned = 1 WHERE id = ?", arguments: [ids[1]])
            var note = Note(text: "Answer mail", pinned: false)
            try db.insert(&note)
        }
        await waitUntil("the list shows the transaction") { lines() == ["[section 0]", "  Answer mail", "  Buy milk", "  📌Call Ada"] }

        // A detail view model edits and deletes its note; the list follows.
        let detail = NoteDetailViewModel(store: store, id: ids[0])
        try detail.start()
        #expect(detail.heading == "BUY MILK")
        try await detail.delete()
        await waitUntil("the deletion arrives") { detail.isDeleted && lines() == ["[section 0]", "  Answer mail", "  📌Call Ada"] }
        #expect(list.errors.isEmpty && list.reloadCount == 1)
    }
}
