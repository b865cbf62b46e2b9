import SQLiteStoreCore
import Testing

/// Typed predicates across relationships, checked against the rows they must select.
@Suite("Predicates across relationships")
struct RelationshipPredicateTests {
    let directory: TemporaryDirectory
    let store: Store

    /// Lists 1–4 with 0, 1, 3 and 5 chores (chores 2n+1 done); chores tagged as `populate` does.
    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: RelationshipSchema.script())
        try store.write { db in
            try db.execute(script: "INSERT INTO tag(id, name) VALUES (1, 'urgent'), (2, 'home'), (3, 'work');")
            for (list, chores) in [(1, 0), (2, 1), (3, 3), (4, 5)] {
                var todoList = TodoList(name: "list \(list)")
                try db.insert(&todoList)
                for index in 0..<chores {
                    var chore = Chore(listID: todoList.id, title: "chore \(list).\(index)", done: index % 2 == 1)
                    try db.insert(&chore)
                }
            }
            try db.execute(sql: "UPDATE chore SET done = 1 WHERE list_id = 2")
            try db.execute(sql: "INSERT INTO chore(title, list_id) VALUES ('orphan', NULL)")
            try db.execute(script: "INSERT INTO chore_tag(chore_id, tag_id) VALUES (1, 1), (1, 2), (2, 2), (5, 1);")
        }
    }

    private func lists(_ predicate: ModelPredicate<TodoList>) throws -> [String] {
        try store.read { db in try db.fetch(StoreRequest<TodoList>().filter(predicate)).map(\.name) }
    }

    private func chores(_ predicate: ModelPredicate<Chore>) throws -> [String] {
        try store.read { db in try db.fetch(StoreRequest<Chore>().filter(predicate)).map(\.title) }
    }

    @Test("To-one: chores whose list's name is X, by column and by EXISTS; chores with a list at all")
    func toOne() throws {
        #expect(try chores(Chore.list.name == "list 3") == ["chore 3.0", "chore 3.1", "chore 3.2"])
        #expect(try chores(Chore.list.matches { $0.name == "list 2" || $0.name == "list 3" && $0.id == 3 }).count == 4)
        #expect(try chores(!Chore.list.exists) == ["orphan"])
        let sorted = try store.read { db in
            try db.fetch(StoreRequest<Chore>().filter(Chore.list.exists).order(Chore.list.name.descending, Chore.columns.title.ascending))
        }
        #expect(sorted.first?.title == "chore 4.0")
    }

    @Test("To-many: lists with any unfinished chore, with none, with more than n (of some kind)")
    func toMany() throws {
        #expect(try lists(TodoList.chores.any { $0.done == false }) == ["list 3", "list 4"])
        #expect(try lists(TodoList.chores.any()) == ["list 2", "list 3", "list 4"])
        #expect(try lists(TodoList.chores.isEmpty) == ["list 1"])
        #expect(try lists(TodoList.chores.count > 2) == ["list 3", "list 4"])
        #expect(try lists(TodoList.chores.count == 1) == ["list 2"])
        #expect(try lists(TodoList.chores.count { $0.done == false } >= 3) == ["list 4"])
        #expect(try lists(TodoList.chores.count <= 1 && TodoList.chores.count != 0) == ["list 2"])
    }

    @Test("To-many: lists by the sum of their chores' column, NULL over none matching no order")
    func toManyValues() throws {
        let doneChores = TodoList.chores.sum(\.done)  // NULL, 1, 1, 2
        #expect(try lists(doneChores == 1) == ["list 2", "list 3"])
        #expect(try lists(doneChores != 1) == ["list 1", "list 4"])
        #expect(try lists(doneChores < 2) == ["list 2", "list 3"])
        #expect(try lists(doneChores <= 2) == ["list 2", "list 3", "list 4"])
        #expect(try lists(doneChores > 1) == ["list 4"])
        #expect(try lists(doneChores >= 1 && TodoList.chores.max(\.done) { $0.done == false } == 0) == ["list 3", "list 4"])
    }

    @Test("Many-to-many: chores tagged X, chores with two tags or more, or with n tags of some kind")
    func manyToMany() throws {
        #expect(try chores(Chore.tags.any { $0.name == "urgent" }) == ["chore 2.0", "chore 4.0"])
        #expect(try chores(Chore.tags.count >= 2) == ["chore 2.0"])
        #expect(try chores(Chore.tags.any()).count == 3)
        #expect(try chores(Chore.tags.count { $0.name == "home" } >= 1) == ["chore 2.0", "chore 3.0"])
        #expect(try chores(Chore.tags.count { $0.name != "home" } == 1) == ["chore 2.0", "chore 4.0"])
        #expect(try chores(Chore.tags.count { $0.name == "urgent" || $0.name == "home" } >= 2) == ["chore 2.0"])
    }

    @Test("Values are bound, identifiers quoted, and the predicates name the tables they read and how")
    func boundAndAnalysed() throws {
        let hostile = "'); DROP TABLE list; --"
        let predicate = TodoList.chores.any { $0.title == hostile } && TodoList.chores.count > 3
        #expect(!predicate.expression.sql.contains(hostile))
        #expect(predicate.expression.sql.contains("EXISTS (SELECT 1 FROM \"chore\" WHERE \"chore\".\"list_id\" = \"list\".\"id\""))
        #expect(predicate.expression.arguments == [.text(hostile), .integer(3)])
        #expect(try lists(predicate).isEmpty)
        // Children read by their own columns: a changed chore changes its old and new list only.
        #expect(predicate.expression.referencedColumns == ["id"] && predicate.expression.childLinks == [TodoList.chores.link])
        #expect(predicate.expression.relatedTables == ["chore"] && predicate.expression.untracedTables.isEmpty)
        // Across a join table, or reading the child's list: traced to no row, read again.
        let tagged = Chore.tags.any { $0.name == "x" }.expression
        #expect(tagged.relatedTables == ["tag", "chore_tag"] && tagged.referencedColumns == nil && tagged.childLinks.isEmpty)
        let throughParent = TodoList.chores.any { _ in Chore.list.name == "x" }.expression
        #expect(throughParent.referencedColumns == nil && throughParent.untracedTables == ["chore", "list"])
        #expect((Chore.list.name == "x").expression.relatedTables == ["list"])
    }
}
