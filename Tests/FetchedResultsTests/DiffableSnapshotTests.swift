import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// `DiffableSnapshot`: followed along the change sets of random transactions, it equals the
/// snapshot of a fresh read after each one, and marks the updated rows for reconfiguration.
///
/// `DIFFABLE_SEED` replays a seed.
@MainActor @Suite(.timeLimit(.minutes(10))) struct DiffableSnapshotTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(
            schema: Note.schema + """
                CREATE UNIQUE INDEX note_title ON note(title);
                CREATE TABLE log(n);
                CREATE TRIGGER note_scored AFTER UPDATE OF score ON note WHEN new.score > 8
                    BEGIN UPDATE note SET grp = 'high' WHERE id = new.id; END;
                """)
    }

    private static let requests = [
        StoreRequest<Note>().order(Column("grp").ascending, Column("score").descending).sectioned(by: Column("grp")).batchSize(4),
        StoreRequest<Note>().filter(Column("score") >= 2).order(Column("score").ascending, Column("title").ascending),
    ]

    @Test func followingChangeSetsGivesTheSnapshotOfAFreshRead() async throws {
        let seed = ProcessInfo.processInfo.environment["DIFFABLE_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("DiffableSnapshotTests seed: \(seed) (replay with DIFFABLE_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for request in Self.requests {
            let controller = FetchedResultsController(store: store, request: request)
            var changes = controller.changes(initial: true).makeAsyncIterator()
            try controller.performFetch()
            var delivered = 0
            controller.didChange = { _ in delivered += 1 }
            var snapshot = try DiffableSnapshot().applying(try #require(try await changes.next()))
            for step in 0..<150 {
                let before = delivered
                try await randomTransaction(&random)
                try await controller.waitUntilCurrent()
                // One transaction, one step: the sequence has an element exactly when the controller delivered one.
                if delivered > before { snapshot = try snapshot.applying(try #require(try await changes.next())) }
                let fresh = DiffableSnapshot(try store.freshSnapshot(request))
                #expect(snapshot.sections == fresh.sections, "seed \(seed), step \(step)")
                #expect(Set(snapshot.reconfiguredItems).isSubset(of: Set(snapshot.itemIdentifiers)))
                #expect(Set(snapshot.sectionIdentifiers).count == snapshot.sections.count, "section identifiers are unique")
                #expect(Set(snapshot.itemIdentifiers).count == snapshot.itemIdentifiers.count, "item identifiers are unique")
                if snapshot.sections != fresh.sections { return }
            }
        }
    }

    @Test func updatedRowsAreReconfigured() async throws {
        try await store.write { db in try db.execute(script: "INSERT INTO note(title, grp, score) VALUES ('a', 'x', 1), ('b', 'x', 2)") }
        let controller = FetchedResultsController(store: store, request: Self.requests[0])
        try controller.performFetch()
        var snapshot = DiffableSnapshot(controller.results)
        var changes = controller.changes().makeAsyncIterator()
        try await store.write { db in try db.execute(sql: "UPDATE note SET title = 'A' WHERE id = 1") }
        snapshot = try snapshot.applying(try #require(try await changes.next()))
        #expect(snapshot.reconfiguredItems == [Note.id(1)])
        #expect(snapshot.sections == [.init(id: .init(name: "x", occurrence: 0), items: [Note.id(2), Note.id(1)])])
    }

    @Test func repeatedSectionNamesGetDistinctIdentifiers() {
        let snapshot = DiffableSnapshot(
            SectionedSnapshot(sections: [.init(name: "2", ids: [Note.id(1)]), .init(name: "2", ids: [Note.id(2)])]))
        #expect(snapshot.sectionIdentifiers == [.init(name: "2", occurrence: 0), .init(name: "2", occurrence: 1)])
    }

    private func randomTransaction(_ random: inout SeededGenerator) async throws {
        let id = Int64.random(in: 1...25, using: &random)
        let title = "t\(Int.random(in: 0...30, using: &random))"
        let group: DatabaseValue = ["x", "y", "z", nil].randomElement(using: &random)?.map { .text($0) } ?? .null
        let score = Int64.random(in: 0...10, using: &random)
        let statements: [(String, [any DatabaseValueConvertible])]
        switch Int.random(in: 0..<7, using: &random) {
        case 0: statements = [("INSERT OR IGNORE INTO note(title, grp, score) VALUES (?, ?, ?)", [title, group, score])]
        case 1: statements = [("INSERT OR REPLACE INTO note(id, title, grp, score) VALUES (?, ?, ?, ?)", [id, title, group, score])]
        case 2: statements = [("UPDATE note SET score = ? WHERE id = ?", [score, id])]
        case 3: statements = [("UPDATE OR REPLACE note SET title = ? WHERE id = ?", [title, id])]
        case 4: statements = [("DELETE FROM note WHERE id = ?", [id])]
        case 5: statements = [("UPDATE note SET grp = ? WHERE score < ?", [group, score])]
        default: statements = [("INSERT INTO log VALUES (?)", [score])]
        }
        try await store.write { db in
            for (sql, arguments) in statements { try db.execute(sql: sql, arguments: arguments) }
            // A failing statement (a duplicate title under ABORT) is caught: it keeps nothing.
            _ = try? db.execute(sql: "INSERT INTO note(title) SELECT title FROM note LIMIT 1")
        }
    }
}
