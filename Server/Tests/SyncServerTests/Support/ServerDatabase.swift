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
