// The snippets of the MVVM article (SQLiteStoreViewModels.docc/MVVM.md) after its
// walk-through (which `WalkthroughTests` runs), verbatim: edit both together.
import Foundation
import Observation
import SQLiteStoreCore
import SQLiteStoreResults
import SQLiteStoreViewModels
import Testing

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
final class TableAdapter: ListViewUpdating {
    private(set) var log: [String] = []
    func performBatchUpdates(_ changeSet: ChangeSet) { log.append("batch \(changeSet)") }
    func reloadData() { log.append("reload") }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
@Observable
final class SearchViewModel {
    var query = ""
    var resultCount = 0
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
@Observable
final class SearchField {
    var text = ""
    var caption = ""
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct Folder: StoreModel {
    static let tableName = "folder"
    var id: Int64?
    var name: String
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct FiledNote: StoreModel {
    static let tableName = "filed_note"
    var id: Int64?
    var text: String
    var folderID: Int64?

    enum CodingKeys: String, CodingKey {
        case id, text
        case folderID = "folder_id"
    }

    static let folder = ToOne<FiledNote, Folder>("folder", foreignKey: "folder_id")
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
@Observable
final class FiledNoteViewModel: StoreViewModel<FiledNote> {
    var folderName = ""

    override init(store: Store, id: Int64) {
        super.init(store: store, id: id)
        bindModel(FiledNote.folder, \.name) { detail, name in detail.folderName = name ?? "Unfiled" }
    }

    override func relatedObjectWasDeleted(_ objectID: ObjectID, through link: ToOneLink) {
        folderName = "Unfiled (its folder was deleted)"
    }
}

@MainActor
@Suite(.timeLimit(.minutes(10))) struct MVVMArticleTests {
    let directory: TemporaryDirectory
    let store: Store

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: """
                CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT NOT NULL, pinned INTEGER NOT NULL);
                INSERT INTO note(text, pinned) VALUES ('Buy milk', 0);
                """)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aBindingThroughARelationshipFollowsTheRelatedRow() async throws {
        try await store.write { db in
            try db.execute(
                script: """
                    CREATE TABLE folder(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE filed_note(id INTEGER PRIMARY KEY, text TEXT NOT NULL,
                                            folder_id INTEGER REFERENCES folder(id) ON DELETE SET NULL);
                    INSERT INTO folder(id, name) VALUES (1, 'Inbox');
                    INSERT INTO filed_note(id, text, folder_id) VALUES (1, 'Call Ada', 1);
                    """)
        }
        let detail = FiledNoteViewModel(store: store, id: 1)
        try detail.start()
        #expect(detail.folderName == "Inbox")
        try await store.write { db in try db.execute(sql: "UPDATE folder SET name = 'Calls' WHERE id = 1") }
        await waitUntil("the rename arrives") { detail.folderName == "Calls" }
        try await store.write { db in try db.execute(sql: "DELETE FROM folder WHERE id = 1") }
        await waitUntil("the deletion arrives") { detail.folderName == "Unfiled (its folder was deleted)" }
        await waitUntil("the nullified reference arrives") { detail.object != nil && detail.object?.folderID == nil }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func tableAdapterReloadsThenAppliesEachChangeSet() async throws {
        let notes = FetchedDataSource(
            store: store,
            request: StoreRequest<Note>().order(Column("text").ascending),
            placeholder: { _ in NoteCellViewModel.placeholder },
            makeViewModel: NoteCellViewModel.init
        )
        try notes.performFetch()

        let table = TableAdapter()
        let subscription = table.show(changesOf: notes)  // keep it: releasing it stops the updates

        try await store.write { db in try db.execute(sql: "INSERT INTO note(text, pinned) VALUES ('Answer mail', 0)") }
        await waitUntil("the batch arrives") { table.log.count == 2 }
        #expect(table.log == ["reload", "batch ChangeSet(inserts: [0.0])"])
        subscription.cancel()
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func bindingsKeepPropertiesInStep() async throws {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        let search = SearchViewModel()
        let field = SearchField()
        var bindings: [BindingToken] = []
        bindings.append(search.bindTwoWay(\.query, with: field, \.text))
        bindings.append(search.bind(\.resultCount, to: field, \.caption) { "\($0) results" })
        bindings.append(search.observe(\.query) { query in print("searching", query) })
        field.text = "milk"  // search.query becomes "milk" after the current main-actor turn

        #expect(field.caption == "0 results", "one-way bindings assign the current value at once")
        await waitUntil("the query follows the field") { search.query == "milk" && printed == ["searching ", "searching milk"] }
        search.resultCount = 3
        await waitUntil("the caption follows the count") { field.caption == "3 results" }
        #expect(bindings.allSatisfy { $0.isBound })
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func commandRunsTheActionOnceAndReportsItsOutcome() async throws {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        let add = Command { (text: String) in
            try await store.write { db in
                var note = Note(text: text, pinned: false)
                try db.insert(&note)
                return note.id ?? -1
            }
        }
        let outcome = await add.execute("Buy bread")  // .succeeded(the new id)
        print(add.status, add.lastOutput ?? -1, outcome.output ?? -1)

        #expect(printed == ["succeeded 2 2"])
        #expect(try await store.read { db in try db.fetchOne(Note.self, id: 2) }?.text == "Buy bread")
    }
}
