import Foundation
import SQLiteStoreCore
import SQLiteStoreMacros
import Testing

/// A model whose key is a plain `Int64`: it is inserted only through its draft.
@StoreModel(table: "note")
struct DraftNote: Equatable {
    var id: Int64
    var text: String
    var pinned: Bool = Self.pinnedByDefault  // the draft's initializer takes it as DraftNote.pinnedByDefault
    var due: Date?
    static let pinnedByDefault = false
    @StoreIgnored var isSelected = false
}

/// A model with a UUID key that the library makes when the draft has none.
@StoreModel(table: "tag")
struct DraftTag: Equatable {
    var id: UUID
    var name: String
}

/// A model whose `String` key, marked `@PrimaryKey`, is the app's to choose.
@StoreModel(table: "country")
struct DraftCountry: Equatable {
    @PrimaryKey var code: String
    var name: String
}

/// `Model.Draft` and `db.insert(_:)`: inserting a model without a key, getting it back as stored.
@Suite("Model drafts")
struct ModelDraftTests {
    static let schema = """
        CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT NOT NULL CHECK (text <> ''), pinned INTEGER NOT NULL, due REAL);
        CREATE TABLE tag(id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE country(code TEXT PRIMARY KEY, name TEXT NOT NULL);
        """
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Self.schema)
    }

    @Test("A draft of an Int64-keyed model comes back with the rowid SQLite chose, equal to the stored row")
    func rowIDKey() throws {
        let due = Date(timeIntervalSince1970: 1_800_000_000)
        let (first, second, stored) = try store.write { db in
            let first = try db.insert(DraftNote.Draft(text: "Buy milk"))
            let second = try db.insert(DraftNote.Draft(text: "Call", pinned: true, due: due))
            return (first, second, try db.fetch(StoreRequest<DraftNote>().order { $0.id.ascending }))
        }
        #expect(first == DraftNote(id: 1, text: "Buy milk", pinned: false, due: nil))
        #expect(second == DraftNote(id: 2, text: "Call", pinned: true, due: due))
        #expect(stored == [first, second])
    }

    @Test("A draft's own key is kept; a UUID key left nil gets a new UUID, a different one each time")
    func chosenAndNewKeys() throws {
        let chosen = UUID()
        let (kept, made, other, noteKept) = try store.write { db in
            (
                try db.insert(DraftTag.Draft(id: chosen, name: "home")),
                try db.insert(DraftTag.Draft(name: "work")),
                try db.insert(DraftTag.Draft(name: "play")),
                try db.insert(DraftNote.Draft(id: 40, text: "at 40"))
            )
        }
        #expect(kept.id == chosen)
        #expect(made.id != other.id && made.id != chosen)
        #expect(noteKept.id == 40)
        let stored = try store.read { db in try db.fetchOne(DraftTag.self, id: made.id) }
        #expect(stored == made)
    }

    @Test("A String key left nil is refused before anything is written; the drafted key is forwarded as id")
    func stringKeyIsTheAppsToChoose() throws {
        var draft = DraftCountry.Draft(name: "France")
        let error = #expect(throws: StoreError.self) { try store.write { db in try db.insert(draft) } }
        #expect(error?.code == .misuse)
        draft.id = "FR"
        #expect(draft.code == "FR")
        let france = try store.write { db in try db.insert(draft) }
        #expect(france == DraftCountry(code: "FR", name: "France"))
        let count = try store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM country") }
        #expect(count == 1)
    }

    @Test("A draft that breaks a constraint throws SQLITE_CONSTRAINT, stores nothing, and the next insert works")
    func constraintFailure() throws {
        let (check, unique, after) = try store.write { db in
            let check = #expect(throws: StoreError.self) { try db.insert(DraftNote.Draft(text: "")) }
            try db.insert(DraftTag.Draft(name: "home"))
            let unique = #expect(throws: StoreError.self) { try db.insert(DraftTag.Draft(name: "home")) }
            return (check, unique, try db.insert(DraftNote.Draft(text: "after")))
        }
        #expect(check?.code == .constraint && unique?.code == .constraint)
        #expect(after == DraftNote(id: 1, text: "after"))
        let tags = try store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM tag") }
        #expect(tags == 1)
    }

    @Test("An insert through a draft is published as one inserted row")
    func publishedAsAnInsert() async throws {
        let recorder = try ChangeRecorder(store: store, tables: ["note"])
        let changes = try await recorder.commit { db in try db.insert(DraftNote.Draft(text: "seen")) }
        #expect(changes.changes(in: "note").inserted == [1])
        #expect(changes.changes(in: "note").updated.isEmpty)
    }
}
