import Foundation
import Logging
import PostgresNIO

/// Reads the server's tables directly, to check what a request stored.
enum ServerDatabase {
    /// The rows of `sync_changes`, as (account name, device, device sequence), in server order.
    static func changes(in database: String) async throws -> [(account: String, device: String, sequence: Int64)] {
        guard let components = URLComponents(string: database), let host = components.host, let port = components.port else {
            throw ClusterError("not a database URL: \(database)")
        }
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: host, port: port, username: components.user ?? "postgres", password: nil,
                database: String(components.path.dropFirst()), tls: .disable),
            id: 1, logger: Logger(label: "test"))
        defer { Task { try? await connection.close() } }
        let rows = try await connection.query(
            """
            SELECT a.name, c.device, c.device_seq FROM sync_changes c JOIN sync_accounts a ON a.id = c.account ORDER BY c.seq
            """, logger: Logger(label: "test"))
        var result: [(account: String, device: String, sequence: Int64)] = []
        for try await (account, device, sequence) in rows.decode((String, String, Int64).self) {
            result.append((account, device, sequence))
        }
        return result
    }
}
