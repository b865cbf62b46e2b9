import Foundation
import SQLiteStoreCore
import Testing

/// Calls into the store from inside its own closures: clear errors or joined transactions, never a deadlock.
@Suite("Reentrancy", .timeLimit(.minutes(10)))
struct ReentrancyTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Item.schema)
    }

    @Test("write inside write is misuse; caught, the outer write still commits")
    func writeInsideWrite() throws {
        try store.write { db in
            try db.execute(sql: "INSERT INTO item(title) VALUES ('outer')")
            let error = #expect(throws: StoreError.self) {
                try store.write { inner in try inner.execute(sql: "INSERT INTO item(title) VALUES ('inner')") }
            }
            #expect(error?.code == .misuse)
            #expect(error?.message.contains("db.transaction") == true)
        }
        #expect(try store.read { db in try db.count("item") } == 1)
    }

    @Test("write inside an async write's closure is misuse")
    func writeInsideAsyncWrite() async throws {
        let code = try await store.write { [store] db in
            do {
                try store.write { _ in }
                return ResultCode.ok
            } catch let error as StoreError {
                return error.code
            }
        }
        #expect(code == .misuse)
    }

    @Test("write inside read is misuse", arguments: [0, 2])
    func writeInsideRead(readerCount: Int) throws {
        var configuration = StoreConfiguration()
        configuration.readerCount = readerCount
        let store = try directory.makeStore(named: "readers-\(readerCount).sqlite", configuration: configuration, schema: Item.schema)
        let error = #expect(throws: StoreError.self) {
            try store.read { _ in try store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('x')") } }
        }
        #expect(error?.code == .misuse)
        #expect(try store.read { db in try db.count("item") } == 0)
    }

    @Test("read inside write sees the write's uncommitted rows", arguments: [0, 2])
    func readInsideWrite(readerCount: Int) throws {
        var configuration = StoreConfiguration()
        configuration.readerCount = readerCount
        let store = try directory.makeStore(named: "readers-\(readerCount).sqlite", configuration: configuration, schema: Item.schema)
        let seen = try store.write { db in
            try db.execute(sql: "INSERT INTO item(title) VALUES ('uncommitted')")
            return try store.read { inner in try inner.count("item") }
        }
        #expect(seen == 1)
    }

    @Test("read inside read joins the outer snapshot")
    func readInsideRead() throws {
        let writeDone = DispatchSemaphore(value: 0)
        let (outer, inner) = try store.read { db in
            let outer = try db.count("item")
            DispatchQueue.global().async { [store] in
                try? store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('meanwhile')") }
                writeDone.signal()
            }
            _ = waitBriefly(writeDone)
            return (outer, try store.read { inner in try inner.count("item") })
        }
        #expect(outer == 0 && inner == 0)
        #expect(try store.read { db in try db.count("item") } == 1)
    }

    @Test("The same store used from another store's write does not confuse the roles")
    func twoStores() throws {
        let other = try directory.makeStore(named: "other.sqlite", schema: Item.schema)
        try other.write { db in
            try db.execute(sql: "INSERT INTO item(title) VALUES ('other')")
            try store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('store')") }
        }
        #expect(try store.read { db in try db.count("item") } == 1)
        #expect(try other.read { db in try db.count("item") } == 1)
    }
}

extension ResultCode {
    /// `SQLITE_OK`, for tests that report success as a code.
    static let ok = ResultCode(rawValue: 0)
}
