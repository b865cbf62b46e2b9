import Foundation
import Logging
import PostgresNIO
import StoreSyncServer
import SyncServerHarness

/// The change log of one account after `updates` updates of `rows` notes (each update writes
/// one of three columns of one note, from one of four devices, dated two days ago), before and
/// after the server's maintenance compacts it: its rows, how long the compaction took, and the
/// longest a push of the account waited meanwhile (a probe takes the account's push lock, as a
/// push does, every 10 ms).
///
/// The changes are written by PostgreSQL itself (`generate_series`), as a push would store
/// them, so that a million of them take seconds, not the minutes a million pushed ones would.
struct LogCompaction {
    let updates: Int
    let rows: Int

    struct Result: CustomStringConvertible {
        let updates: Int
        let rows: Int
        let before: Int64
        let after: Int64
        let compaction: Duration
        let report: SyncMaintenanceReport
        let longestWait: Duration

        var description: String {
            """
            compaction of \(updates) updates of \(rows) rows (3 columns): the log held \(before) changes, then \(after) \
            (the live cells: \(rows * 3)); \(report); it took \(String(format: "%.2f s", compaction.seconds)), \
            and a push of the account waited at most \(String(format: "%.3f s", longestWait.seconds)) for it
            """
        }
    }

    func run() async throws -> Result {
        let database = try PostgresCluster.shared.get().makeDatabase()
        let postgres = try PostgresClient.Configuration(url: database)
        let logger = Logger(label: "compaction")
        // The schema, made by a first maintenance run on the empty database.
        _ = try await SyncServer.maintain(SyncMaintenancePolicy(), postgres: postgres, logger: logger)
        _ = try SyncServerProcess.addToken(database: database, account: "compaction")
        try await execute(
            """
            INSERT INTO sync_changes(account, device, device_seq, schema_version, tbl, pk, col, value, hlc, received)
            SELECT a.id, 'device-' || (g % 4), g, 1, 'notes', '"n' || (g % \(rows)) || '"', (ARRAY['title', 'score', 'body'])[g % 3 + 1],
                   '"v' || g || '"', g, now() - interval '2 days'
            FROM sync_accounts a, generate_series(1, \(updates)) AS g
            """, on: database)
        try await execute("ANALYZE sync_changes", on: database)
        let before = try await count(on: database)
        let probe = Task { try await longestPushWait(on: database) }
        let start = ContinuousClock.now
        let report = try await SyncServer.maintain(
            SyncMaintenancePolicy(retention: .seconds(86_400), forgetDevicesAfter: nil), postgres: postgres, logger: logger)
        let compaction = ContinuousClock.now - start
        probe.cancel()
        let longestWait = try await probe.value
        let after = try await count(on: database)
        guard after == Int64(rows * 3) else {
            throw BenchmarkFailure(description: "the compacted log holds \(after) changes, not the \(rows * 3) live cells")
        }
        return Result(
            updates: updates, rows: rows, before: before, after: after, compaction: compaction, report: report, longestWait: longestWait)
    }

    /// Takes the account's push lock every 10 ms until cancelled, as a push does; returns the
    /// longest it waited for it.
    private func longestPushWait(on database: String) async throws -> Duration {
        try await withConnection(to: database) { connection, logger in
            var longest = Duration.zero
            while !Task.isCancelled {
                let start = ContinuousClock.now
                try await connection.query("BEGIN", logger: logger)
                try await connection.query("SELECT pg_advisory_xact_lock(1)", logger: logger)
                longest = max(longest, ContinuousClock.now - start)
                try await connection.query("COMMIT", logger: logger)
                try? await Task.sleep(for: .milliseconds(10))
            }
            return longest
        }
    }

    private func count(on database: String) async throws -> Int64 {
        try await withConnection(to: database) { connection, logger in
            let rows = try await connection.query("SELECT count(*) FROM sync_changes", logger: logger)
            for try await count in rows.decode(Int64.self) { return count }
            return 0
        }
    }

    private func execute(_ sql: String, on database: String) async throws {
        try await withConnection(to: database) { connection, logger in
            _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        }
    }

    private func withConnection<T>(to database: String, _ body: (PostgresConnection, Logger) async throws -> T) async throws -> T {
        let logger = Logger(label: "compaction")
        let connection = try await PostgresConnection.connect(configuration: try .init(url: database), id: 1, logger: logger)
        do {
            let result = try await body(connection, logger)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
