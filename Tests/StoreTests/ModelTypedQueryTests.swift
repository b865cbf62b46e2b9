import SQLiteStoreCore
import Testing

/// Typed predicates, orderings and section keys, checked against what SQLite selects.
@Suite("Typed queries")
struct ModelTypedQueryTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Todo.schema)
        try store.write { db in
            let todos = [
                Todo(title: "Buy milk", done: false, priority: 1, tag: "home"),
                Todo(title: "buy bread", done: true, priority: 2, tag: nil),
                Todo(title: "100% done_ish", done: false, priority: 3, tag: "work"),
                Todo(title: "Call \\ plumber", done: true, priority: nil, tag: "home"),
                Todo(title: "Zebra", done: false, priority: 5, tag: "zoo"),
            ]
            for var todo in todos { try db.insert(&todo) }
        }
    }

    private func titles(_ request: StoreRequest<Todo>) throws -> [String] {
        try store.read { db in try db.fetch(request).map(\.title) }
    }

    @Test("Comparisons, IS NULL, IN, BETWEEN and their combinations select what SQLite selects")
    func comparisons() throws {
        let all = StoreRequest<Todo>()
        #expect(try titles(all.filter { $0.done == false }) == ["Buy milk", "100% done_ish", "Zebra"])
        #expect(try titles(all.filter { $0.done != false && $0.priority == nil }) == ["Call \\ plumber"])
        #expect(try titles(all.filter { $0.priority > 2 || $0.tag.isNull }) == ["buy bread", "100% done_ish", "Zebra"])
        #expect(try titles(all.filter { $0.priority <= 2 && $0.priority >= 2 }) == ["buy bread"])
        #expect(try titles(all.filter { $0.priority < 2 }) == ["Buy milk"])
        #expect(try titles(all.filter { $0.tag.in(["home", "zoo"]) }) == ["Buy milk", "Call \\ plumber", "Zebra"])
        #expect(try titles(all.filter { $0.tag.in([String?]()) }).isEmpty)
        #expect(try titles(all.filter { $0.priority.between(2, and: 3) }) == ["buy bread", "100% done_ish"])
        #expect(try titles(all.filter { !$0.tag.isNotNull }) == ["buy bread"])
    }

    @Test("hasPrefix and contains escape LIKE's wildcards and match case exactly")
    func textSearches() throws {
        let all = StoreRequest<Todo>()
        #expect(try titles(all.filter { $0.title.hasPrefix("Buy") }) == ["Buy milk"])  // LIKE alone would match "buy bread"
        #expect(try titles(all.filter { $0.title.hasPrefix("100%") }) == ["100% done_ish"])
        #expect(try titles(all.filter { $0.title.hasPrefix("1%") }).isEmpty)  // % is literal
        #expect(try titles(all.filter { $0.title.contains("_") }) == ["100% done_ish"])  // _ is literal
        #expect(try titles(all.filter { $0.title.contains("\\") }) == ["Call \\ plumber"])  // so is the escape character
        #expect(try titles(all.filter { $0.title.contains("") }).count == 5)
        #expect(try titles(all.filter { $0.title.like("b%") }) == ["Buy milk", "buy bread"])
    }

    @Test("Orderings by typed columns, with a collation; section keys are typed")
    func orderingsAndSections() throws {
        let binary = try titles(StoreRequest<Todo>().order { $0.title.ascending })
        #expect(binary == ["100% done_ish", "Buy milk", "Call \\ plumber", "Zebra", "buy bread"])
        let nocase = try titles(StoreRequest<Todo>().order { $0.title.ascending(collation: .nocase) })
        #expect(nocase == ["100% done_ish", "buy bread", "Buy milk", "Call \\ plumber", "Zebra"])
        let byTagThenTitle = try titles(StoreRequest<Todo>().order { [$0.tag.descending, $0.title.descending(collation: .nocase)] })
        #expect(byTagThenTitle == ["Zebra", "100% done_ish", "Call \\ plumber", "Buy milk", "buy bread"])
        let sectioned = StoreRequest<Todo>().order { $0.tag.ascending }.sectioned { $0.tag }
        #expect(sectioned.sectionKey == Column("tag"))
        #expect(Todo.columns.done.name == "is_done")
    }

    @Test("A typed predicate records the columns it reads, for incremental live results")
    func referencedColumns() {
        let predicate = Todo.columns.done == false && Todo.columns.title.hasPrefix("a")
        #expect(predicate.expression.referencedColumns == ["is_done", "title"])
    }
}
