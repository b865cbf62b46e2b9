import SQLiteStoreCore
import Testing

/// Loading related objects: a constant number of statements whatever the number of rows.
@Suite("Fetching related objects")
struct RelatedFetchTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: RelationshipSchema.script())
    }

    /// A chore with its list, as an app declares it.
    struct ChoreWithList: Equatable {
        var chore: Chore
        var list: TodoList?
    }

    @Test("To-one: each chore with its list, in the request's order, in 2 statements for 1 or 100 lists")
    func toOne() throws {
        try store.write { db in
            try RelationshipSchema.populate(db, lists: 100, perList: 3)
            try db.execute(sql: "INSERT INTO chore(title, list_id) VALUES ('loose', NULL)")
        }
        let request = StoreRequest<Chore>().order { $0.title.descending }
        let (pairs, statements) = try store.read { db in
            try db.recordingStatements { try db.fetch(request, including: Chore.list) }
        }
        let chores = try store.read { db in try db.fetch(request) }
        let lists = try store.read { db in try db.fetch(StoreRequest<TodoList>()) }
        #expect(pairs.map(\.0) == chores)
        for (chore, list) in pairs {
            #expect(list == lists.first { $0.id == chore.listID })
        }
        #expect(pairs.first { $0.0.title == "loose" }?.1 == nil)
        #expect(statements.count == 2, "\(statements)")
        let one = try store.read { db in
            try db.recordingStatements { try db.fetch(request.filter { $0.listID == 1 }, including: Chore.list) }
        }
        #expect(one.1.count == 2)
        let mine = pairs.map { ChoreWithList(chore: $0, list: $1) }
        #expect(mine.count == 301)
    }

    @Test("To-many: each list with its chores, filtered and ordered, in 2 statements for 100 lists")
    func toMany() throws {
        try store.write { db in
            try RelationshipSchema.populate(db, lists: 100, perList: 4)
            try db.execute(sql: "INSERT INTO list(id, name) VALUES (1000, 'empty')")
        }
        let children = StoreRequest<Chore>().filter { $0.done == false }.order { $0.title.descending }
        let (lists, statements) = try store.read { db in
            try db.recordingStatements {
                try db.fetch(StoreRequest<TodoList>().order { $0.name.ascending }, including: TodoList.chores, children: children)
            }
        }
        #expect(statements.count == 2, "\(statements)")
        #expect(lists.count == 101)
        let expected = try store.read { db in try db.fetch(children) }
        for (list, chores) in lists {
            #expect(chores == expected.filter { $0.listID == list.id })
        }
        #expect(lists.first { $0.0.name == "empty" }?.1 == [])
        #expect(lists.first { $0.0.name == "list 7" }?.1.map(\.title) == ["chore 7.2", "chore 7.0"])
    }

    @Test("To-many children cannot have a window, which would apply to all parents at once")
    func toManyRefusesAWindow() throws {
        let error = #expect(throws: StoreError.self) {
            try store.read { db in
                try db.fetch(StoreRequest<TodoList>(), including: TodoList.chores, children: StoreRequest<Chore>().limit(1))
            }
        }
        #expect(error?.code == .misuse)
    }

    @Test("Many-to-many: each chore with its tags through the join table, in 3 statements")
    func manyToMany() throws {
        try store.write { db in try RelationshipSchema.populate(db, lists: 30, perList: 5) }
        let (chores, statements) = try store.read { db in
            try db.recordingStatements { try db.fetch(StoreRequest<Chore>(), including: Chore.tags) }
        }
        #expect(statements.count == 3, "\(statements)")
        #expect(chores.count == 150)
        for (chore, tags) in chores {
            #expect(tags.map(\.id) == (0..<Int(chore.id! % 3)).map { Int64($0 + 1) })
        }
        #expect(chores.first { $0.0.id == 2 }?.1.map(\.name) == ["urgent", "home"])
    }

    @Test("Many-to-many targets filtered and ordered: each chore's tags as the targets request selects them, twice when paired twice")
    func manyToManyTargetsRequest() throws {
        try store.write { db in
            try RelationshipSchema.populate(db, lists: 20, perList: 5)
            try db.execute(sql: "INSERT INTO tag(id, name) VALUES (4, 'errand'), (5, 'someday')")
            try db.execute(sql: "INSERT INTO chore_tag(chore_id, tag_id) VALUES (3, 4), (3, 5), (4, 4), (4, 4), (7, 3)")
        }
        let targets = StoreRequest<Tag>().filter { $0.name != "someday" }.order { $0.name.descending }
        let (chores, statements) = try store.read { db in
            try db.recordingStatements {
                try db.fetch(StoreRequest<Chore>().order { $0.title.descending }, including: Chore.tags, targets: targets)
            }
        }
        #expect(statements.count == 3, "\(statements)")
        #expect(
            chores.map(\.0.title)
                == (try store.read { db in try db.fetch(StoreRequest<Chore>().order { $0.title.descending }) }).map(\.title))
        for (chore, tags) in chores {
            let expected = try store.read { db in
                try db.fetchRows(
                    sql: """
                        SELECT tag.name FROM chore_tag JOIN tag ON tag.id = chore_tag.tag_id
                        WHERE chore_tag.chore_id = ? AND tag.name <> 'someday' ORDER BY tag.name DESC, tag.id, chore_tag.id
                        """, arguments: [chore.id]
                ).map { $0[0] }
            }
            #expect(tags.map { DatabaseValue.text($0.name) } == expected, "chore \(chore.id ?? 0)")
        }
        #expect(chores.first { $0.0.id == 3 }?.1.map(\.name) == ["errand"])
        #expect(chores.first { $0.0.id == 4 }?.1.map(\.name) == ["urgent", "errand", "errand"])
        let error = #expect(throws: StoreError.self) {
            try store.read { db in try db.fetch(StoreRequest<Chore>(), including: Chore.tags, targets: targets.limit(1)) }
        }
        #expect(error?.code == .misuse)
    }

    @Test("Counts: each list with its number of chores, and of unfinished chores, in one statement")
    func counts() throws {
        try store.write { db in
            try RelationshipSchema.populate(db, lists: 50, perList: 3)
            try db.execute(sql: "INSERT INTO list(id, name) VALUES (1000, 'empty')")
        }
        let (counts, statements) = try store.read { db in
            try db.recordingStatements {
                try db.fetch(StoreRequest<TodoList>().filter { $0.name != "list 3" }, counting: TodoList.chores)
            }
        }
        #expect(statements.count == 1, "\(statements)")
        #expect(counts.count == 50)
        #expect(counts.allSatisfy { list, count in count == (list.name == "empty" ? 0 : 3) })
        let open = try store.read { db in try db.fetch(StoreRequest<TodoList>(), counting: TodoList.chores.count { $0.done == false }) }
        #expect(open.first?.1 == 2)
    }

    @Test("An empty request still runs its two statements and returns nothing")
    func emptyRequest() throws {
        let (chores, statements) = try store.read { db in
            try db.recordingStatements { try db.fetch(StoreRequest<Chore>(), including: Chore.list) }
        }
        #expect(chores.isEmpty)
        #expect(statements.count == 2)
    }
}
