import Foundation
import SQLiteStoreCore
import SQLiteStoreSync
import Testing

@testable import SQLiteStoreResults

/// A note in a synced table: a String key, made on any device.
private struct SyncedNote: StoreModel, Equatable {
    static let tableName = "synced_note"
    var id: String
    var title: String
    var rank: Int

    static let schema = "CREATE TABLE synced_note(id TEXT PRIMARY KEY, title TEXT NOT NULL, rank INTEGER NOT NULL);"
}

/// A controller on one device follows another device's edits, applied through sync, exactly
/// as it follows local ones.
@MainActor @Suite(.timeLimit(.minutes(10))) struct SyncedControllerTests {
    let directory: TemporaryDirectory
    let a: Store
    let b: Store

    init() throws {
        directory = try TemporaryDirectory()
        var configuration = StoreConfiguration()
        configuration.sync = SyncConfiguration(tables: [SyncedNote.tableName])
        for name in ["a.sqlite", "b.sqlite"] {
            try Store(path: directory.path(name)).write { db in try db.execute(script: SyncedNote.schema) }
        }
        a = try Store(path: directory.path("a.sqlite"), configuration: configuration)
        b = try Store(path: directory.path("b.sqlite"), configuration: configuration)
    }

    private func send(from: Store, to: Store) throws {
        let batch = try from.sync.pendingChanges()
        try to.sync.apply(batch)
        if let last = batch.lastID { try from.sync.acknowledge(upTo: last) }
    }

    @Test("After A's batch is applied on B, B's controller delivers exactly the change set a fresh read implies")
    func remoteBatchGivesExactChangeSet() async throws {
        try await a.write { db in
            for (id, rank) in [("n1", 1), ("n2", 2), ("n3", 3), ("n4", 4)] {
                try db.execute(sql: "INSERT INTO synced_note VALUES (?, ?, ?)", arguments: [id, "note \(id)", rank])
            }
        }
        try send(from: a, to: b)
        let request = StoreRequest<SyncedNote>().order(Column("rank").ascending)
        let controller = FetchedResultsController(store: b, request: request)
        try controller.performFetch()
        var changes = controller.changes().makeAsyncIterator()
        let before = controller.results.sectionedSnapshot()
        try await a.write { db in
            try db.execute(sql: "DELETE FROM synced_note WHERE id = 'n1'")
            try db.execute(sql: "UPDATE synced_note SET title = 'renamed' WHERE id = 'n2'")
            try db.execute(sql: "UPDATE synced_note SET rank = 9 WHERE id = 'n3'")
            try db.execute(sql: "INSERT INTO synced_note VALUES ('n5', 'new', 0)")
        }
        try send(from: a, to: b)
        let change = try #require(await changes.next())
        let fresh = try b.freshSnapshot(request)
        #expect(try change.changeSet.applied(to: before, new: change.results.sectionedSnapshot()) == fresh)
        #expect(change.results.sectionedSnapshot() == fresh)
        #expect(change.changeSet.deletes == [IndexPath(row: 0, section: 0)])
        #expect(change.changeSet.inserts == [IndexPath(row: 0, section: 0)])
        #expect(change.changeSet.updates == [IndexPath(row: 1, section: 0)])
        #expect(change.changeSet.moves == [.init(from: IndexPath(row: 2, section: 0), to: IndexPath(row: 3, section: 0), isChanged: true)])
        #expect(try controller.fetchedObjects.map(\.title) == ["new", "renamed", "note n4", "note n3"])
        let sql = "SELECT * FROM synced_note ORDER BY id"
        let onB = try await b.read { db in try db.fetchRows(sql: sql) }
        let onA = try await a.read { db in try db.fetchRows(sql: sql) }
        #expect(onB == onA)
    }
}
