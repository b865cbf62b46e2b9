import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// The controller orders, sections and names rows exactly as SQLite does: the collation in
/// force, bytes for BINARY text, numbers compared across INTEGER and REAL.
@MainActor @Suite(.timeLimit(.minutes(10))) struct SQLiteOrderTests {
    /// A row with a text key and a number, in a table whose columns may declare a collation.
    struct Word: StoreModel, Equatable {
        static let tableName = "word"
        var id: Int64?
        var name: String?
        var n: Int?
    }

    /// The identity of a `word` row alone, for keys of any storage class.
    struct Slot: StoreModel, Equatable {
        static let tableName = "word"
        var id: Int64?
    }

    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    private func store(nameType: String, rows: [String]) throws -> Store {
        let values = rows.map { "(\($0))" }.joined(separator: ", ")
        return try directory.makeStore(
            schema: """
                CREATE TABLE word(id INTEGER PRIMARY KEY, name \(nameType), n INTEGER);
                INSERT INTO word(name) VALUES \(values);
                """)
    }

    private func write(_ store: Store, _ sql: String, _ arguments: [any DatabaseValueConvertible] = []) async throws {
        try await store.write { db in try db.execute(sql: sql, arguments: arguments) }
    }

    /// Issue 13, item 1: the first fetch was ordered by SQLite with NOCASE, later changes
    /// were placed with BINARY comparisons, and deleting every row trapped.
    @Test(arguments: [
        StoreRequest<Word>().order(Column("name").ascending),
        StoreRequest<Word>().order(Column("name").descending).sectioned(by: Column("name")),
    ])
    func declaredNocaseColumnOrdersAsSQLite(request: StoreRequest<Word>) async throws {
        let store = try store(nameType: "TEXT COLLATE NOCASE", rows: ["'apple'", "'Zed'", "'work'", "'Work'"])
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        let checker = ReplayChecker(controller)
        try await write(store, "UPDATE word SET n = 1 WHERE name = 'Work'")
        try await checker.check(store, "update of another column")
        try await write(store, "INSERT INTO word(name) VALUES ('WORK'), ('Apple'), ('banana'), ('zed ')")
        try await checker.check(store, "inserts equal under NOCASE")
        try await write(store, "DELETE FROM word WHERE id = 3")
        try await checker.check(store, "delete of a section's first row")
        try await write(store, "DELETE FROM word")
        try await checker.check(store, "delete all")
    }

    /// RTRIM ignores trailing spaces: 'a' and 'a  ' tie (and share a section).
    @Test func declaredRtrimColumnOrdersAsSQLite() async throws {
        let store = try store(nameType: "TEXT COLLATE RTRIM", rows: ["'b'", "'a  '", "'a'", "' a'"])
        let request = StoreRequest<Word>().order(Column("name").ascending).sectioned(by: Column("name"))
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        let checker = ReplayChecker(controller)
        try await checker.check(store, "fetch")
        try await write(store, "INSERT INTO word(name) VALUES ('a '), ('b  '), ('a' || char(9))")
        try await checker.check(store, "inserts")
        try await write(store, "DELETE FROM word WHERE id = 2")
        try await checker.check(store, "delete")
    }

    /// Issue 13, item 2: 'Café' in NFC and in NFD are different texts to SQLite (BINARY
    /// compares bytes): two sections, each named by its own bytes, on every path.
    @Test(arguments: [false, true])
    func canonicallyEquivalentTextsStayApart(refetching: Bool) async throws {
        let nfc = "Caf\u{E9}"
        let nfd = "Cafe\u{301}"
        let store = try store(nameType: "TEXT", rows: ["'\(nfc)'"])
        var request = StoreRequest<Word>().order(Column("name").ascending).sectioned(by: Column("name"))
        if refetching { request = request.filter(SQLExpression(sql: "length(name) > ?", arguments: [0])) }
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        let checker = ReplayChecker(controller)
        try await write(store, "INSERT INTO word(name) VALUES (?)", [nfd])
        try await checker.check(store, "NFD row inserted")
        #expect(controller.sections.map { $0.name.map { Array($0.utf8) } } == [Array(nfd.utf8), Array(nfc.utf8)])
        try await write(store, "DELETE FROM word WHERE name = ?", [nfc])
        try await checker.check(store, "NFC row deleted")
        #expect(controller.sections.map { $0.name.map { Array($0.utf8) } } == [Array(nfd.utf8)])
    }

    /// Issue 13, item 4: a section is named by the value of its first row; 2 and 2.0 are
    /// one section, named "2" or "2.0" as a fresh fetch names it.
    @Test(arguments: [false, true])
    func numericSectionIsNamedByItsFirstRow(refetching: Bool) async throws {
        let store = try store(nameType: "", rows: ["2", "3"])
        var request = StoreRequest<Slot>().order(Column("name").ascending).sectioned(by: Column("name"))
        if refetching { request = request.filter(SQLExpression(sql: "name IS NOT ?", arguments: [99])) }
        let controller = FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        let checker = ReplayChecker(controller)
        try await write(store, "UPDATE word SET name = 2.0 WHERE id = 1")
        try await checker.check(store, "2 became 2.0")
        #expect(controller.sections.map(\.name) == ["2.0", "3"])
        try await write(store, "INSERT INTO word(id, name) VALUES (0, 2)")
        try await checker.check(store, "2 inserted before 2.0")
        #expect(controller.sections.map(\.name) == ["2", "3"])
        try await write(store, "DELETE FROM word WHERE id = 0")
        try await checker.check(store, "first row of the section deleted")
        #expect(controller.sections.map(\.name) == ["2.0", "3"])
    }
}
