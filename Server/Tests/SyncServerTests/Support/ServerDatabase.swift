import Foundation
import Logging
import PostgresNIO
import SQLiteStoreSyncProtocol
import StoreSyncServer
import SyncServerHarness

/// Reads the server's tables directly, to check what a request stored.
enum ServerDatabase {
    /// The rows of `sync_changes`, as (account name, device, device sequence), in server order.
    static func changes(in database: String) async throws -> [(account: String, device: String, sequence: Int64)] {
        try await withConnection(to: database) { connection, logger in
            let rows = try await connection.query(
                """
                SELECT a.name, c.device, c.device_seq FROM sync_changes c JOIN sync_accounts a ON a.id = c.account ORDER BY c.seq
                """, logger: logger)
            var result: [(account: String, device: String, sequence: Int64)] = []
            for try await (account, device, sequence) in rows.decode((String, String, Int64).self) {
                result.append((account, device, sequence))
            }
            return result
        }
    }

    /// Every stored change (of the account named `account` only, when given), as it was pushed, in server order.
    static func wireChanges(in database: String, account: String? = nil) async throws -> [SyncWireChange] {
        try await withConnection(to: database) { connection, logger in
            let rows = try await connection.query(
                """
                SELECT c.device, c.device_seq, c.tbl, c.pk, c.col, c.value, c.hlc FROM sync_changes c JOIN sync_accounts a ON a.id = c.account
                WHERE \(account)::text IS NULL OR a.name = \(account) ORDER BY c.seq
                """, logger: logger)
            let decoder = JSONDecoder()
            var result: [SyncWireChange] = []
            for try await (device, sequence, table, key, column, value, hlc) in rows.decode(
                (String, Int64, String, String, String?, String?, Int64).self)
            {
                let operation: SyncWireChange.Operation =
                    if let column, let value {
                        .set(column: column, value: try decoder.decode(SyncWireValue.self, from: Data(value.utf8)))
                    } else {
                        .delete
                    }
                result.append(
                    SyncWireChange(
                        device: device, sequence: sequence, table: table,
                        key: try decoder.decode(SyncWireValue.self, from: Data(key.utf8)), operation: operation, hlc: hlc))
            }
            return result
        }
    }

    /// The keys of the rows of `table` that the server placed in the data of the account named
    /// `account` (`sync_rows`): the roots it may share, for a root table.
    static func placedKeys(of table: String, account: String, in database: String) async throws -> [SyncWireValue] {
        try await withConnection(to: database) { connection, logger in
            let rows = try await connection.query(
                """
                SELECT r.pk FROM sync_rows r JOIN sync_accounts a ON a.id = r.owner
                WHERE a.name = \(account) AND r.tbl = \(table) ORDER BY r.pk
                """, logger: logger)
            var keys: [SyncWireValue] = []
            for try await key in rows.decode(String.self) {
                keys.append(try JSONDecoder().decode(SyncWireValue.self, from: Data(key.utf8)))
            }
            return keys
        }
    }

    /// Where the server placed the row `key` of `table` (`sync_rows`), in each account's data
    /// that holds it: one line each, for diagnostics.
    static func placements(of table: String, key: String, in database: String) async throws -> [String] {
        try await withConnection(to: database) { connection, logger in
            let rows = try await connection.query(
                """
                SELECT a.name || ': parent ' || coalesce(r.parent_pk, '-') || ' root ' || coalesce(r.root, '-') || ' links '
                    || coalesce(r.links, '-')
                FROM sync_rows r JOIN sync_accounts a ON a.id = r.owner
                WHERE r.tbl = \(table) AND r.pk = \(#"{"text":""# + key + #""}"#)
                """, logger: logger)
            var lines: [String] = []
            for try await line in rows.decode(String.self) { lines.append(line) }
            return lines
        }
    }

    /// The share events (`sync_share_events`), one line each in server order, for diagnostics.
    static func shareEvents(in database: String) async throws -> [String] {
        try await withConnection(to: database) { connection, logger in
            let rows = try await connection.query(
                """
                SELECT seq || ' ' || kind || ' owner ' || owner || ' member ' || coalesce(member::text, '-') || ' root ' || coalesce(root, '-')
                    || ' row ' || coalesce(pk, '-') || ' ' || coalesce(old_root, '-') || ' -> ' || coalesce(new_root, '-')
                FROM sync_share_events ORDER BY seq
                """, logger: logger)
            var lines: [String] = []
            for try await line in rows.decode(String.self) { lines.append(line) }
            return lines
        }
    }

    /// How many times each change (device, device sequence) is stored, in any account's data.
    static func storedCounts(in database: String) async throws -> [String: Int] {
        try await withConnection(to: database) { connection, logger in
            let rows = try await connection.query(
                "SELECT device || '#' || device_seq, count(*) FROM sync_changes GROUP BY device, device_seq", logger: logger)
            var counts: [String: Int] = [:]
            for try await (id, count) in rows.decode((String, Int64).self) { counts[id] = Int(count) }
            return counts
        }
    }

    /// The changes the server refused (`sync_refusals`), as `device#sequence`.
    static func refusedChanges(in database: String) async throws -> Set<String> {
        try await withConnection(to: database) { connection, logger in
            let rows = try await connection.query("SELECT device || '#' || device_seq FROM sync_refusals", logger: logger)
            var refused: Set<String> = []
            for try await id in rows.decode(String.self) { refused.insert(id) }
            return refused
        }
    }

    /// Runs `sql` as it is: a test's way to put into the log what no request would.
    static func execute(_ sql: String, in database: String) async throws {
        _ = try await withConnection(to: database) { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        }
    }

    /// Runs `body` while another session holds the advisory lock that a push of the account
    /// named `account` takes to store its changes: the account's pushes wait in the server
    /// meanwhile, in flight.
    static func holdingPushLock<T>(of account: String, in database: String, _ body: () async throws -> T) async throws -> T {
        try await withConnection(to: database) { connection, logger in
            let locked = try await connection.query(
                "SELECT pg_advisory_lock(id) FROM sync_accounts WHERE name = \(account)", logger: logger)
            for try await _ in locked {}
            let result = try await body()
            _ = try await connection.query("SELECT pg_advisory_unlock_all()", logger: logger)
            return result
        }
    }

    /// How many sessions wait for an advisory lock (pushes waiting for their account's lock).
    static func advisoryLockWaiters(in database: String) async throws -> Int {
        try await withConnection(to: database) { connection, logger in
            let rows = try await connection.query(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted", logger: logger)
            for try await count in rows.decode(Int64.self) { return Int(count) }
            return 0
        }
    }

    private static func withConnection<T>(
        to database: String, _ body: (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        let logger = Logger(label: "test")
        let connection = try await PostgresConnection.connect(configuration: try .init(url: database), id: 1, logger: logger)
        defer { Task { try? await connection.close() } }
        return try await body(connection, logger)
    }
}
