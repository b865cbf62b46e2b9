import Foundation
import SQLiteStoreCore
import Testing

/// The snippets of the Concurrency and Transactions article (SQLiteStoreCore.docc),
/// verbatim: edit both together.
@Suite(.timeLimit(.minutes(10))) struct ConcurrencyArticleTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Item.schema)
    }

    private func titles() throws -> [String] {
        try store.read { db in try db.fetch(StoreRequest<Item>().order(Column("id").ascending)).map(\.title) }
    }

    @Test func writesAndReads() throws {
        let id = try store.write { db in
            var item = Item(title: "Buy milk", done: false)
            try db.insert(&item)
            return item.id
        }
        let (count, titles) = try store.read { db in
            let count = try db.fetchCount(StoreRequest<Item>())
            let titles = try db.fetch(StoreRequest<Item>()).map(\.title)
            return (count, titles)  // consistent: the same snapshot
        }

        #expect(id == 1)
        #expect(count == 1 && titles == ["Buy milk"])
    }

    @Test func savepointRollsBackItsRowsOnly() throws {
        try store.write { db in
            var bread = Item(title: "Bread", done: false)
            try db.insert(&bread)
            do {
                try db.transaction {
                    var cake = Item(title: "Cake", done: false)
                    try db.insert(&cake)
                    throw CancellationError()  // rolls back the cake only
                }
            } catch is CancellationError {}
        }

        #expect(try titles() == ["Bread"])
    }

    @Test func cancelledWriteCommitsWholeOrNotAtAll() async throws {
        try await store.write { db in try db.execute(sql: "INSERT INTO item(title, done) VALUES ('a', 0), ('b', 0)") }

        let task = Task {
            try await store.write { db in
                try db.execute(sql: "INSERT INTO item(title, done) SELECT 'copy', 0 FROM item")
            }
        }
        task.cancel()  // the insert commits whole or not at all

        let result = await task.result
        let count = try await store.read { db in try db.fetchCount(StoreRequest<Item>()) }
        switch result {
        case .success: #expect(count == 4)
        case .failure(let error): #expect(error is CancellationError && count == 2)
        }
    }

    @Test func vacuumRunsWithoutTransaction() throws {
        try store.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
        #expect(try titles().isEmpty)
    }

    @Test func checkpointsLeftToTheApp() throws {
        let path = directory.path("manual.sqlite")
        var configuration = StoreConfiguration()
        configuration.prepareDatabase = { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        let store = try Store(path: path, configuration: configuration)
        try store.write { db in try db.execute(script: "CREATE TABLE t(x); INSERT INTO t VALUES (zeroblob(100000))") }
        #expect(try store.write { db in try db.fetchValue(Int.self, sql: "PRAGMA wal_autocheckpoint") } == 0)
        try store.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        #expect(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int == 0)
    }
}
