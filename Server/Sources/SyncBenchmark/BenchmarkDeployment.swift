import Foundation
import SyncServerHarness

/// A new database in the throwaway cluster and `sync-server` processes on it, serving the
/// schema of ``Note`` unless told another; the processes are killed when it is released.
final class BenchmarkDeployment: Sendable {
    let database: String
    let servers: [SyncServerProcess]

    /// A new database and `serverCount` server processes reading the migrations in `migrations`,
    /// syncing `tables`, started with `options` on top (`--share-roots …`).
    init(serverCount: Int, migrations: URL, tables: Set<String> = Note.syncedTables, options: [String] = []) async throws {
        database = try PostgresCluster.shared.get().makeDatabase()
        var servers: [SyncServerProcess] = []
        for _ in 0..<serverCount {
            servers.append(try await SyncServerProcess(database: database, migrations: migrations, tables: tables, options: options))
        }
        self.servers = servers
    }

    /// A new token of the account `account` (created if new).
    func token(for account: String) throws -> String {
        try SyncServerProcess.addToken(database: database, account: account)
    }
}
