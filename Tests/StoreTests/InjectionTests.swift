import Foundation
import SQLiteStoreCore
import Testing

/// Values are always bound and identifiers always quoted: hostile strings match literally or
/// fail cleanly, and never run as SQL.
@Suite("SQL injection")
struct InjectionTests {
    static let hostileValues = [
        "x'); DROP TABLE item; --",
        "' OR '1'='1",
        "\"; DELETE FROM item; --",
        "1; UPDATE item SET title = 'pwned'",
        "%' OR 1=1 --",
    ]
    static let hostileIdentifiers = [
        "title\" = 'x' OR 1=1 --",
        "title\"; DROP TABLE item; --",
        "item\" WHERE 1=1; DROP TABLE item; --",
        "x') OR ('1'='1",
    ]

    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Item.schema)
        try store.write { db in
            for title in ["first", "second"] + Self.hostileValues {
                var item = Item(title: title)
                try db.insert(&item)
            }
        }
    }

    /// The item table still exists with all its rows, none rewritten.
    private func expectTableIntact(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (tables, titles) = try store.read { db in
            (
                try db.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_schema WHERE name = 'item'"),
                try db.fetch(StoreRequest<Item>()).map(\.title)
            )
        }
        #expect(tables == 1, sourceLocation: sourceLocation)
        #expect(titles == ["first", "second"] + Self.hostileValues, sourceLocation: sourceLocation)
    }

    @Test("A hostile value matches only itself, in every kind of predicate", arguments: hostileValues)
    func hostileValue(value: String) throws {
        let predicates: [SQLExpression] = [
            Column("title") == value, Column("title").in([value]), Column("title").like(value.replacingOccurrences(of: "%", with: "\\%")),
            SQLExpression(sql: "title = ?", arguments: [value]),
        ]
        for predicate in predicates {
            let titles = try store.read { db in try db.fetch(StoreRequest<Item>().filter(predicate)).map(\.title) }
            #expect(titles == [value], "\(predicate)")
        }
        let others = try store.read { db in try db.fetchCount(StoreRequest<Item>().filter(Column("title") != value)) }
        #expect(others == Self.hostileValues.count + 1)
        try expectTableIntact()
    }

    @Test("deleteAll with a hostile value deletes only the matching row")
    func hostileDelete() throws {
        let deleted = try store.write { db in try db.deleteAll(Item.self, matching: Column("title") == "nothing' OR '1'='1") }
        #expect(deleted == 0)
        try expectTableIntact()
    }

    @Test("A hostile column name cannot inject: the query fails or matches nothing", arguments: hostileIdentifiers)
    func hostileColumn(name: String) throws {
        let filtered = try fetchOrNoSuchColumn(StoreRequest<Item>().filter(Column(name) == 1 || Column(name).isNull))
        #expect(filtered.map(\.isEmpty) ?? true)
        let ordered = try fetchOrNoSuchColumn(StoreRequest<Item>().order(Column(name).ascending))
        #expect(ordered.map { $0.count == Self.hostileValues.count + 2 } ?? true)
        let deleted = Result { try store.write { db in try db.deleteAll(Item.self, matching: Column(name) == "x") } }
        #expect((try? deleted.get()) ?? 0 == 0)
        try expectTableIntact()
    }

    /// The items `request` fetches, or `nil` when it fails because a column does not exist.
    private func fetchOrNoSuchColumn(_ request: StoreRequest<Item>, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Item]? {
        do {
            return try store.read { db in try db.fetch(request) }
        } catch let error as StoreError {
            #expect(error.code == .error && error.message.hasPrefix("no such column"), "\(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    @Test("A misspelt column name is an error, not a string literal")
    func unknownColumn() throws {
        let error = #expect(throws: StoreError.self) {
            _ = try store.read { db in try db.fetch(StoreRequest<Item>().filter(Column("titel") == "first")) }
        }
        #expect(error?.message == "no such column: titel")
    }

    @Test("A hostile table name fails cleanly as an unknown table", arguments: hostileIdentifiers)
    func hostileTable(name: String) throws {
        let error = #expect(throws: StoreError.self) {
            _ = try store.read { db in try db.fetch(StoreRequest<Item>(tableName: name)) }
        }
        #expect(error?.code == .error)
        #expect(error?.message.hasPrefix("no such table") == true, "\(error?.message ?? "")")
        try expectTableIntact()
    }

    /// A model whose table and column names need quoting.
    struct Odd: StoreModel, Equatable {
        static let tableName = "odd \"table\"; --"
        var id: Int64?
        var value: String

        enum CodingKeys: String, CodingKey {
            case id
            case value = "val\"ue; DROP TABLE item"
        }
    }

    @Test("Table and column names with quotes and semicolons work when they exist")
    func quotedIdentifiers() throws {
        try store.write { db in
            try db.execute(
                sql:
                    "CREATE TABLE \(SQLIdentifier.quote(Odd.tableName))(id INTEGER PRIMARY KEY, \(SQLIdentifier.quote("val\"ue; DROP TABLE item")) TEXT)"
            )
        }
        var odd = Odd(value: "x'); DROP TABLE item; --")
        try store.write { db in try db.insert(&odd) }
        odd.value = "changed"
        try store.write { db in try db.update(odd) }
        let column = Column("val\"ue; DROP TABLE item")
        let (fetched, filtered) = try store.read { db in
            (
                try db.fetchOne(Odd.self, id: odd.id ?? 0),
                try db.fetch(StoreRequest<Odd>().filter(column == "changed").order(column.descending))
            )
        }
        #expect(fetched == odd)
        #expect(filtered == [odd])
        #expect(try store.write { db in try db.delete(odd) })
        #expect(SQLIdentifier.quote("a\"b") == "\"a\"\"b\"")
        try expectTableIntact()
    }
}
