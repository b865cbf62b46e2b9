import Foundation
import Observation
import SQLiteStore
import TestSupport
import Testing

#if canImport(SwiftUI)
import SwiftUI
#endif

// `StoreViewModel`'s snippet.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@Observable final class ItemViewModel: StoreViewModel<Item> {
    var title = ""
    override init(store: Store, id: Int64) {
        super.init(store: store, id: id)
        bindModel(\.title) { viewModel, title in viewModel.title = title }
    }
}

/// `bindModel(_:_:_:)`'s snippet: the name of the item's list, through the relationship.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@Observable final class ItemListNameViewModel: StoreViewModel<Item> {
    var listName = ""
    override init(store: Store, id: Int64) {
        super.init(store: store, id: id)
        bindModel(Item.list, \.name) { viewModel, name in viewModel.listName = name ?? "No list" }
    }
}

// `Command.init(owner:isEnabled:enabledWhen:action:)`'s snippet.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor @Observable final class EditorViewModel {
    let store: Store
    @ObservationIgnored private(set) lazy var save: Command<Note, Void> = Command(owner: self) { editor, note in
        try await editor.store.write { db in
            var note = note; try db.save(&note)
        }
    }

    init(store: Store) { self.store = store }
}

/// Where `Command`'s snippet saves notes.
struct NoteRepository: Sendable {
    let store: Store

    func save(_ note: Note) async throws {
        try await store.write { db in
            var note = note
            try db.save(&note)
        }
    }
}

/// The snippets of `SQLiteStoreViewModels`' documentation comments, verbatim, run against a
/// real store (`.ci/doc-snippets` finds each one here).
@MainActor
@Suite(.timeLimit(.minutes(10))) struct ViewModelsSnippetTests {
    let directory: TemporaryDirectory
    let store: Store

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: SnippetSchema.sql)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func viewModelSnippetsRun() throws {
        let item = ItemViewModel(store: store, id: 2)
        let list = ItemListNameViewModel(store: store, id: 3)
        try item.start()
        try list.start()
        #expect(item.title == "Buy milk")
        #expect(list.listName == "Work")
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func commandSnippetsRun() async throws {
        let notes = NoteRepository(store: store)
        let note = Note(title: "Second note")
        // --- Command
        let save = Command { (note: Note) in try await notes.save(note) }
        // --- end
        #if canImport(SwiftUI)
        _ = Button("Save") { save.start(note) }.disabled(!save.canExecute)
        #endif
        _ = await save.start(note).value
        let editor = EditorViewModel(store: store)
        _ = await editor.save.start(Note(title: "Third note")).value
        let titles = try await store.read { db in try db.fetch(StoreRequest<Note>().order(Column("title").ascending)) }.map(\.title)
        #expect(titles == ["First note", "Second note", "Third note"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func dataSourceSnippetRuns() throws {
        // --- FetchedDataSource
        let notes = FetchedDataSource(
            store: store,
            request: StoreRequest<Note>().order(Column("title").ascending),
            placeholder: { _ in NoteCell.loading }
        ) { note in NoteCell(note) }
        try notes.performFetch()
        let list = InMemoryListView(dataSource: notes)  // or a UIKit table, a SwiftUI list
        // --- end
        #expect(list.sections == [[NoteCell(title: "First note")]])
    }
}
