import Foundation
import SyncServerHarness

/// A new database in the throwaway cluster and `sync-server` processes on it, serving the
/// schema of ``Note``; the processes are killed when it is released.
final class BenchmarkDeployment: Sendable {
    let database: String
    let servers: [SyncServerProcess]

    /// A new database and `serverCount` server processes reading the migrations in `migrations`.
    init(serverCount: Int, migrations: URL) async throws {
        database = try PostgresCluster.shared.get().makeDatabase()
        var servers: [SyncServerProcess] = []
        for _ in 0..<serverCount {
            servers.append(try await SyncServerProcess(database: database, migrations: migrations, tables: Note.syncedTables))
        }
        self.servers = servers
    }

    /// A new token of the account `account` (created if new).
    func token(for account: String) throws -> String {
        try SyncServerProcess.addToken(database: database, account: account)
    }
}
