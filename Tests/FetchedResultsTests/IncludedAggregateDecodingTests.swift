import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// Included sums, least and greatest values decode into the app's own types, from a fetch
/// and from live rows alike: into the property's type (`Int64?`, NULL as `nil`) or into a
/// `DatabaseValue` for a column whose type varies.
@MainActor @Suite struct IncludedAggregateDecodingTests {
    let database: LabelDatabase
    var store: Store { database.store }

    init() throws {
        database = try LabelDatabase()
        try database.store.write { db in
            try db.execute(
                script: """
                    INSERT INTO list(id, name) VALUES (1, 'Groceries'), (2, 'Empty');
                    INSERT INTO item(id, title, list_id, score) VALUES (1, 'Milk', 1, 2), (2, 'Bread', 1, 3);
                    """)
        }
    }

    struct ListCounts: Decodable, Equatable {
        var list: TodoList
        var total: Int64?
        var items: Int
    }

    /// The snippet of `DatabaseValue`'s `Decodable` conformance, verbatim.
    struct ListTotal: Decodable {
        var list: TodoList
        var total: DatabaseValue
    }

    static let request = StoreRequest<TodoList>().order(Column("id").ascending)
        .including(TodoList.items.sum(\.score), as: "total").including(TodoList.items.count, as: "items")

    @Test func aSumDecodesIntoAnOptionalIntegerOrADatabaseValue() throws {
        let totals = try store.read { db in try db.fetch(Self.request, as: ListCounts.self) }
        #expect(totals.map(\.total) == [5, nil])
        #expect(totals.map(\.items) == [2, 0])
        let values = try store.read { db in try db.fetch(Self.request, as: ListTotal.self) }
        #expect(values.map(\.total) == [.integer(5), .null])
    }

    @Test func liveRowsDecodeTheirSumsToo() async throws {
        let controller = FetchedResultsController(store: store, request: Self.request)
        try controller.performFetch()
        try await store.write { db in try db.execute(sql: "INSERT INTO item(title, list_id, score) VALUES ('Tea', 2, 7)") }
        try await controller.waitUntilCurrent()
        #expect(try controller.fetchedRows.map { try $0.decode(ListCounts.self).total } == [5, 7])
    }
}
