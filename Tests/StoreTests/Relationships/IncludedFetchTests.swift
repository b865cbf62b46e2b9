import Foundation
import SQLiteStoreCore
import Testing

/// Requests that include related objects (`including`): each row with its parent and its
/// collections, in a constant number of statements, reachable as properties and decodable
/// into the app's own types.
@Suite("Requests that include related objects")
struct IncludedFetchTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: RelationshipSchema.script())
    }

    /// A chore as the app shows it: with its list and its tags.
    struct ChoreRow: Decodable, Equatable {
        var chore: Chore
        var list: TodoList?
        var tags: [Tag]
    }

    static let request = StoreRequest<Chore>().order { $0.title.descending }.including(Chore.list).including(all: Chore.tags)

    /// The rows as the joins read them, one query per chore (the oracle).
    private func joined(_ db: Database) throws -> [ChoreRow] {
        try db.fetch(StoreRequest<Chore>().order { $0.title.descending }).map { chore in
            let list = try chore.listID.flatMap { try db.fetchOne(TodoList.self, id: $0) }
            let tags = try db.fetch(
                StoreRequest<Tag>().filter(
                    SQLExpression(sql: "id IN (SELECT tag_id FROM chore_tag WHERE chore_id = ?)", arguments: [chore.id])))
            let pairs = try db.fetchRows(
                sql: "SELECT tag_id FROM chore_tag WHERE chore_id = ? ORDER BY tag_id", arguments: [chore.id])
            let paired = pairs.compactMap { pair in tags.first { .integer($0.id ?? -1) == pair[0] } }
            return ChoreRow(chore: chore, list: list, tags: paired)
        }
    }

    @Test("Each row with its list and tags, in the request's order: 3 statements for 1 or 300 rows, never one per row")
    func statementsPerRelationship() throws {
        try store.write { db in
            try RelationshipSchema.populate(db, lists: 100, perList: 3)
            try db.execute(sql: "INSERT INTO chore(title, list_id) VALUES ('loose', NULL)")
        }
        // A key that points at no list, as a database without foreign keys may hold.
        try store.writeWithoutTransaction { db in
            try db.execute(
                script: "PRAGMA foreign_keys = OFF; INSERT INTO chore(title, list_id) VALUES ('dangling', 999); PRAGMA foreign_keys = ON;")
        }
        let (rows, statements) = try store.read { db in try db.recordingStatements { try db.fetchRows(Self.request) } }
        let expected = try store.read { db in try joined(db) }
        #expect(rows.map { ChoreRow(chore: $0.model, list: $0.list, tags: $0.tags) } == expected)
        #expect(rows.contains { $0.title == "dangling" && $0.list == nil })
        // The rows, the lists, the tags (the join table joined to them).
        #expect(statements.count == 3, "\(statements)")
        let one = try store.read { db in
            try db.recordingStatements { try db.fetchRows(Self.request.filter { $0.listID == 1 }) }.statements
        }
        #expect(one.count == 3, "\(one)")
    }

    @Test("A to-many collection: each list with its chores; a list with none has an empty collection")
    func toMany() throws {
        try store.write { db in
            try RelationshipSchema.populate(db, lists: 5, perList: 2)
            try db.execute(sql: "INSERT INTO list(name) VALUES ('empty')")
        }
        let request = StoreRequest<TodoList>().order { $0.name.ascending }.including(all: TodoList.chores)
        let (rows, statements) = try store.read { db in try db.recordingStatements { try db.fetchRows(request) } }
        #expect(statements.count == 2, "\(statements)")
        let expected = try store.read { db in try db.fetch(StoreRequest<TodoList>().order { $0.name.ascending }, including: TodoList.chores)
        }
        #expect(rows.map(\.model) == expected.map(\.0))
        #expect(rows.map(\.chores) == expected.map(\.1))
        #expect(rows.map { $0[TodoList.chores] } == expected.map(\.1))
        #expect(rows.first { $0.name == "empty" }?.chores == [])
    }

    @Test("Decoded into the app's own type, with a missing list as nil; a type that does not fit throws")
    func decodable() throws {
        try store.write { db in
            try RelationshipSchema.populate(db, lists: 3, perList: 3)
            try db.execute(sql: "INSERT INTO chore(title, list_id) VALUES ('loose', NULL)")
        }
        let decoded = try store.read { db in try db.fetch(Self.request, as: ChoreRow.self) }
        #expect(decoded == (try store.read { db in try joined(db) }))

        struct NeedsList: Decodable { var chore: Chore; var list: TodoList }
        #expect(throws: DecodingError.self) { try store.read { db in try db.fetch(Self.request, as: NeedsList.self) } }
        struct WrongTags: Decodable { var chore: Chore; var tags: [TodoList] }
        #expect(throws: DecodingError.self) { try store.read { db in try db.fetch(Self.request, as: WrongTags.self) } }
    }

    @Test("A relationship the request does not include reads as nil or empty; including one twice reads it once")
    func notIncluded() throws {
        try store.write { db in try RelationshipSchema.populate(db, lists: 2, perList: 2) }
        let rows = try store.read { db in try db.fetchRows(StoreRequest<Chore>().including(Chore.list).including(Chore.list)) }
        #expect(rows.allSatisfy { $0.list != nil && $0.tags.isEmpty })
        #expect(StoreRequest<Chore>().including(Chore.list).including(Chore.list).inclusions.count == 1)
    }
}
