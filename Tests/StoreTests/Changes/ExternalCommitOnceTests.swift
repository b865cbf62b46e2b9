import Dispatch
import Foundation
import SQLiteStoreCore
import Testing

/// One commit by another connection is one external publication, whichever of the poll and
/// `checkForExternalChanges()` finds it, even when the other writer restarts the WAL: SQLite
/// makes a restarted WAL visible before the commit that restarted it (as soon as that
/// transaction writes its first page), and `PRAGMA data_version` moves then and again at the commit.
@Suite(.timeLimit(.minutes(10))) struct ExternalCommitOnceTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// A transaction that spills its page cache into a wholly checkpointed WAL restarts it and
    /// makes that visible while it is still open; a check then must wait for the commit.
    @Test func aCommitWhoseRestartedWALShowedEarlierIsPublishedOnce() throws {
        var configuration = StoreConfiguration()
        configuration.externalChangePollInterval = nil
        let store = try directory.makeStore(configuration: configuration, schema: "CREATE TABLE t(id INTEGER PRIMARY KEY, v);")
        let publications = ExternalPublications(of: store)
        let other = try RawConnection(path: directory.path("test.sqlite"))
        try other.execute("PRAGMA cache_size = 2; INSERT INTO t(v) VALUES (1); PRAGMA wal_checkpoint(PASSIVE);")
        try store.checkForExternalChanges()
        #expect(publications.count() == 1)

        try other.execute("BEGIN; \(Self.insertRows(50))")  // spills: the restarted WAL shows now
        let checked = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? store.checkForExternalChanges()
            checked.signal()
        }
        // Either the check has run in the open transaction, or it waits for its end; both must publish once.
        let checkedInTheTransaction = checked.wait(timeout: .now() + .milliseconds(200)) == .success
        try other.execute("COMMIT")
        if !checkedInTheTransaction { #expect(waitBriefly(checked)) }
        try store.checkForExternalChanges()
        #expect(publications.count() == 2, "one publication per external commit")
    }

    /// Many commits by another connection, half of them into a WAL wholly checkpointed, some
    /// large enough to spill, each followed by an explicit check while the store polls every
    /// millisecond: after each check, exactly one publication per commit so far.
    @Test func everyExternalCommitIsPublishedOnceWhileThePollRacesExplicitChecks() throws {
        var random = SeededGenerator()
        var configuration = StoreConfiguration()
        configuration.externalChangePollInterval = .milliseconds(1)
        let store = try directory.makeStore(configuration: configuration, schema: "CREATE TABLE t(id INTEGER PRIMARY KEY, v);")
        let publications = ExternalPublications(of: store)
        let other = try RawConnection(path: directory.path("test.sqlite"))
        try other.execute("PRAGMA cache_size = 2; PRAGMA busy_timeout = 5000;")
        for commit in 1...300 {
            if Bool.random(using: &random) { try other.execute("PRAGMA wal_checkpoint(PASSIVE)") }
            try other.execute(Self.insertRows(Int.random(in: 1...40, using: &random)))
            try store.checkForExternalChanges()
            let count = publications.count()
            #expect(count == commit, "after external commit \(commit), seed \(random.seed)")
            if count != commit { break }
        }
    }

    /// Inserts `count` rows of 1,000 random bytes: more than two pages spill a cache of two.
    private static func insertRows(_ count: Int) -> String {
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count)) "
            + "INSERT INTO t(v) SELECT randomblob(1000) FROM n;"
    }
}

/// Counts a store's external publications, as delivered to an observer.
private final class ExternalPublications: Sendable {
    private let queue = DispatchQueue(label: "ExternalPublications")
    private let external = Locked(0)
    private let observation: ChangeObservation

    init(of store: Store) {
        let external = external
        observation = store.observeChanges(on: queue) { changes in
            if changes.isExternal { external.withLock { $0 += 1 } }
        }
    }

    /// The external publications so far: all those published before the call.
    func count() -> Int {
        queue.sync {}
        return external.withLock { $0 }
    }
}
