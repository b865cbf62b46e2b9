import Dispatch
import Foundation
import SQLiteStoreCore
import Testing

/// `write(_:then:)`: two write transactions on one turn of the writer. The first commits, and
/// its changes are published, before the second begins; no other write runs between them; a
/// second that throws leaves the first committed.
@Suite("Two transactions on one turn of the writer")
struct WriteThenTests {
    struct Refused: Error, Equatable {}

    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Item.schema)
    }

    private func titles(in store: Store) throws -> [String] {
        try store.read { db in
            try db.fetchRows(sql: "SELECT title FROM item ORDER BY id").map { try $0.decode(String.self, column: "title") }
        }
    }

    @Test("The first transaction is committed, seen by another connection and published alone, before the second begins")
    func firstCommitsBeforeSecond() async throws {
        let other = try Store(path: store.path)
        var commits = store.changes(in: ["item"]).makeAsyncIterator()
        let firstRowID = try writeFirstAndSecond(checkingBetweenOn: other)
        #expect(firstRowID == 1)
        #expect(try titles(in: store) == ["first", "second"])
        #expect(try #require(await commits.next()).changes(in: "item").inserted == [1])
        #expect(try #require(await commits.next()).changes(in: "item").inserted == [2])
        try other.close()
    }

    /// Writes `first` and then `second` with the blocking form, checking between them that
    /// `other` reads `first`; returns the first row's rowid.
    private func writeFirstAndSecond(checkingBetweenOn other: Store) throws -> Int64 {
        try store.write { db in
            try db.execute(sql: "INSERT INTO item(title) VALUES ('first')")
            return db.lastInsertedRowID
        } then: { firstRowID, db in
            #expect(firstRowID == 1, "the second is handed what the first returned")
            #expect(try titles(in: other) == ["first"], "another connection reads the first transaction's commit")
            try db.execute(sql: "INSERT INTO item(title) VALUES ('second')")
        }
    }

    @Test("No other write runs between the two, even one waiting for the writer while the first runs")
    func nothingBetween() throws {
        let firstRuns = DispatchSemaphore(value: 0)
        let otherWaits = DispatchSemaphore(value: 0)
        let otherDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { [store] in
            firstRuns.wait()
            otherWaits.signal()
            #expect(throws: Never.self) { try store.write { db in try db.execute(sql: "INSERT INTO item(title) VALUES ('other')") } }
            otherDone.signal()
        }
        try store.write { db in
            try db.execute(sql: "INSERT INTO item(title) VALUES ('first')")
            firstRuns.signal()
            otherWaits.wait()
            // The other write is about to wait for the writer; give it time to queue up.
            Thread.sleep(forTimeInterval: 0.05)
        } then: { _, db in
            try db.execute(sql: "INSERT INTO item(title) VALUES ('second')")
        }
        otherDone.wait()
        #expect(try titles(in: store) == ["first", "second", "other"])
    }

    @Test("A second transaction that throws is rolled back and its error thrown; the first stays committed")
    func secondThrows() async throws {
        #expect(throws: Refused()) { try writeFirstThenRefuse() }
        await #expect(throws: Refused()) {
            try await store.write { db in
                try db.execute(sql: "INSERT INTO item(title) VALUES ('async first')")
            } then: { _, db in
                try db.execute(sql: "INSERT INTO item(title) VALUES ('async second')")
                throw Refused()
            }
        }
        #expect(try titles(in: store) == ["first", "async first"])
    }

    private func writeFirstThenRefuse() throws {
        try store.write { db in
            try db.execute(sql: "INSERT INTO item(title) VALUES ('first')")
        } then: { _, db in
            try db.execute(sql: "INSERT INTO item(title) VALUES ('second')")
            throw Refused()
        }
    }

    @Test("The async form commits both, handing the first's value to the second; cancelled before it starts, it writes nothing")
    func asyncForm() async throws {
        let value = try await store.write { db in
            try db.execute(sql: "INSERT INTO item(title) VALUES ('first')")
            return "handed"
        } then: { (value: String, db) in
            try db.execute(sql: "INSERT INTO item(title) VALUES (?)", arguments: [value])
        }
        #expect(value == "handed")
        let cancelled = Task { [store] in
            withUnsafeCurrentTask { $0?.cancel() }
            try await store.write { db in
                try db.execute(sql: "INSERT INTO item(title) VALUES ('never')")
            } then: { _, db in
                try db.execute(sql: "INSERT INTO item(title) VALUES ('never either')")
            }
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(try titles(in: store) == ["first", "handed"])
    }
}
