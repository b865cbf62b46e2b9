import Foundation
import SQLiteStoreCore
import Testing

/// What `StoreConfiguration` sets on the writer and every reader, and in-memory stores.
@Suite("Configuration")
struct ConfigurationTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A pragma's value, as text, as the writer and as a reader see it.
    private func pragma(_ name: String, in store: Store) throws -> (writer: String?, reader: String?) {
        func text(_ db: Database) throws -> String? {
            switch try db.fetchRows(sql: "PRAGMA \(name)").first?[0] {
            case .text(let text)?: text
            case .integer(let number)?: String(number)
            default: nil
            }
        }
        return (try store.write(text), try store.read(text))
    }

    @Test("Defaults: WAL, synchronous NORMAL, foreign keys on, 5 s busy timeout, four readers, a 16 MiB writer cache")
    func defaults() throws {
        let store = try directory.makeStore()
        #expect(store.configuration.readerCount == 4)
        #expect(store.path == directory.path("test.sqlite"))
        #expect(try pragma("journal_mode", in: store) == ("wal", "wal"))
        #expect(try pragma("synchronous", in: store).writer == "1")
        #expect(try pragma("foreign_keys", in: store) == ("1", "1"))
        #expect(try pragma("busy_timeout", in: store) == ("5000", "5000"))
        #expect(try pragma("cache_size", in: store) == ("-16384", "-2000"))
        #expect(FileManager.default.fileExists(atPath: directory.path("test.sqlite-wal")))
    }

    @Test("Foreign keys are enforced by default and not when turned off")
    func foreignKeys() throws {
        let schema = "CREATE TABLE parent(id INTEGER PRIMARY KEY); CREATE TABLE child(parent INTEGER REFERENCES parent(id));"
        let enforced = try directory.makeStore(named: "on.sqlite", schema: schema)
        let error = #expect(throws: StoreError.self) {
            try enforced.write { db in try db.execute(sql: "INSERT INTO child VALUES (7)") }
        }
        #expect(error?.code == .constraint)
        var configuration = StoreConfiguration()
        configuration.foreignKeys = false
        let relaxed = try directory.makeStore(named: "off.sqlite", configuration: configuration, schema: schema)
        try relaxed.write { db in try db.execute(sql: "INSERT INTO child VALUES (7)") }
        #expect(try pragma("foreign_keys", in: relaxed) == ("0", "0"))
    }

    @Test("Journal mode, synchronous and busy timeout follow the configuration")
    func customPragmas() throws {
        var configuration = StoreConfiguration()
        configuration.journalMode = .delete
        configuration.synchronous = .full
        configuration.busyTimeout = .milliseconds(1_250)
        configuration.readerCount = 1
        let store = try directory.makeStore(configuration: configuration)
        #expect(try pragma("journal_mode", in: store).writer == "delete")
        #expect(try pragma("synchronous", in: store).writer == "2")
        #expect(try pragma("busy_timeout", in: store) == ("1250", "1250"))
    }

    @Test("The writer's cache follows writerCacheSize in kibibytes rounded up, or keeps SQLite's default for nil")
    func writerCacheSize() throws {
        var configuration = StoreConfiguration()
        configuration.writerCacheSize = 1_500_000
        #expect(
            try pragma("cache_size", in: directory.makeStore(named: "sized.sqlite", configuration: configuration)) == ("-1465", "-2000"))
        configuration.writerCacheSize = nil
        #expect(
            try pragma("cache_size", in: directory.makeStore(named: "default.sqlite", configuration: configuration)) == ("-2000", "-2000"))
    }

    @Test("A writer cache size of zero or less is refused before the file is created", arguments: [0, -1])
    func invalidWriterCacheSize(bytes: Int) throws {
        var configuration = StoreConfiguration()
        configuration.writerCacheSize = bytes
        let error = #expect(throws: StoreError.self) { try directory.makeStore(named: "refused.sqlite", configuration: configuration) }
        #expect(error?.code == .misuse)
        #expect(!FileManager.default.fileExists(atPath: directory.path("refused.sqlite")))
    }

    @Test("prepareDatabase runs on the writer and on every reader, after the store's pragmas")
    func prepareHook() throws {
        let calls = Locked<[Bool]>([])
        var configuration = StoreConfiguration()
        configuration.readerCount = 3
        configuration.prepareDatabase = { db in
            try calls.withLock { $0.append(try db.fetchValue(Bool.self, sql: "PRAGMA foreign_keys") ?? false) }
            try db.execute(sql: "PRAGMA cache_size = -4321")
        }
        let store = try directory.makeStore(configuration: configuration)
        #expect(calls.current == [true, true, true, true])
        #expect(try pragma("cache_size", in: store) == ("-4321", "-4321"))
    }

    @Test("A prepareDatabase hook that throws makes opening fail with its error")
    func failingPrepareHook() throws {
        struct NotToday: Error, Equatable {}
        var configuration = StoreConfiguration()
        configuration.prepareDatabase = { _ in throw NotToday() }
        #expect(throws: NotToday()) { _ = try directory.makeStore(configuration: configuration) }
    }

    @Test("readerCount 0 runs reads on the writer; they still work and see committed data")
    func noReaders() async throws {
        var configuration = StoreConfiguration()
        configuration.readerCount = 0
        let store = try directory.makeStore(configuration: configuration, schema: Item.schema)
        try await store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('a')") }
        #expect(try await store.read { db in try db.count("item") } == 1)
        #expect(try await store.read { db in try db.count("item") } == 1)
        #expect(try await store.read { db in try db.fetchValue(Int.self, sql: "PRAGMA query_only") } == 0)
    }

    @Test("Readers refuse writes (query_only)")
    func readersAreQueryOnly() throws {
        let store = try directory.makeStore()
        #expect(try store.read { db in try db.fetchValue(Int.self, sql: "PRAGMA query_only") } == 1)
    }

    @Test("In-memory stores work, are private to each store, and report their mode")
    func inMemory() async throws {
        let first = try Store.inMemory()
        let second = try Store.inMemory()
        try await first.write { db in try db.execute(script: Item.schema + "INSERT INTO item(title) VALUES ('only in first');") }
        try await second.write { db in try db.execute(script: Item.schema) }
        #expect(first.path == ":memory:")
        #expect(try await first.read { db in try db.count("item") } == 1)
        #expect(try await first.read { db in try db.count("item") } == 1)
        #expect(try await second.read { db in try db.count("item") } == 0)
        #expect(try await first.read { db in try db.fetchValue(String.self, sql: "PRAGMA journal_mode") } == "memory")
        #expect(try await first.read { db in try db.fetchValue(Int.self, sql: "PRAGMA foreign_keys") } == 1)
        let seenInside = try await first.write { db in
            try db.execute(sql: "INSERT INTO item(title) VALUES ('uncommitted')")
            return try first.read { inner in try inner.count("item") }
        }
        #expect(seenInside == 2)
    }

    @Test("A store reopens its file with the data committed before")
    func reopen() throws {
        do {
            let store = try directory.makeStore(schema: Item.schema)
            try store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('persisted')") }
        }
        let reopened = try directory.makeStore()
        #expect(try reopened.read { db in try db.count("item") } == 1)
    }
}
