import CSQLite
@testable import SQLiteStoreCore
import Testing

/// Where SQLite lacks the pre-update hook (Apple's system library), capture falls back to the
/// update hook; these tests run that path on Linux and check it closes the same gaps.
@Suite struct UpdateHookFallbackTests {
    let directory: TemporaryDirectory
    let db: Database
    let published: Locked<[StoreChanges]>
    let capture: ChangeCapture

    init() throws {
        directory = try TemporaryDirectory()
        db = try Database(path: directory.path("fallback.sqlite"), flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        try db.execute(script: """
            CREATE TABLE a(id INTEGER PRIMARY KEY, v TEXT UNIQUE);
            CREATE TABLE w(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
            INSERT INTO a VALUES (1, 'one'), (2, 'two'), (3, 'three');
            """)
        let published = Locked<[StoreChanges]>([])
        self.published = published
        capture = try ChangeCapture(database: db, source: .updateHook) { changes in published.withLock { $0.append(changes) } }
        db.changeCapture = capture
    }

    private func commit(_ script: String) throws -> StoreChanges? {
        let before = published.withLock { $0.count }
        try db.begin(.immediate)
        try db.execute(script: script)
        try db.commit()
        return published.withLock { $0.count > before ? $0.last : nil }
    }

    @Test func truncatingDeleteIsReportedRowByRow() throws {
        let changes = try commit("DELETE FROM a")
        #expect(changes?.changes(in: "a") == TableChanges(deleted: [1, 2, 3]))
    }

    @Test func replaceMakesTheTableWhollyChanged() throws {
        let changes = try commit("INSERT OR REPLACE INTO a(id, v) VALUES (9, 'one')")
        #expect(changes?.changes(in: "a").isWhollyChanged == true, "the row REPLACE deleted is unknown to the update hook")
    }

    @Test func withoutRowIDWritesMakeTheTableWhollyChanged() throws {
        let changes = try commit("INSERT INTO w VALUES ('k', 1)")
        #expect(changes?.changes(in: "w").isWhollyChanged == true)
    }

    @Test func ordinaryWritesAreExact() throws {
        let changes = try commit("INSERT INTO a(id, v) VALUES (4, 'four'); UPDATE a SET v = 'uno' WHERE id = 1; DELETE FROM a WHERE id = 2")
        #expect(changes?.changes(in: "a") == TableChanges(inserted: [4], updated: [1], deleted: [2]))
    }

    @Test func rollbackPublishesNothing() throws {
        try db.begin(.immediate)
        try db.execute(sql: "DELETE FROM a")
        db.rollback()
        #expect(published.withLock { $0.isEmpty })
    }
}
