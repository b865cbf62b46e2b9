import Foundation
import SQLiteStoreSyncProtocol
import SyncServerHarness

/// A new database in the shared cluster, server processes on it, and tokens.
struct ServerFixture {
    let database: String

    init() throws {
        database = try PostgresCluster.shared.get().makeDatabase()
    }

    /// A server on the database whose schema is ``SyncedStores/migrations(version:)``'s, started with `options`.
    func startServer(schemaVersion: Int = 1, port: Int = 0, options: [String] = []) async throws -> SyncServerProcess {
        try await SyncServerProcess(
            database: database, port: port, migrations: try SyncedStores.migrations(version: schemaVersion), tables: SyncedStores.tables,
            options: options)
    }

    func token(for account: String) throws -> String {
        try SyncServerProcess.addToken(database: database, account: account)
    }

    /// A change of device `device` with sequence `sequence`, dated now (plus `ahead`).
    static func change(
        device: String = "device-a", sequence: Int64, table: String = "items", ahead: Duration = .zero
    ) -> SyncWireChange {
        let milliseconds = Int64(Date().timeIntervalSince1970 * 1000) + ahead.components.seconds * 1000
        return SyncWireChange(
            device: device, sequence: sequence, table: table, key: .text("row-\(sequence)"),
            operation: .set(column: "title", value: .text("title \(sequence)")), hlc: milliseconds << 16)
    }

    static func push(_ changes: [SyncWireChange], schemaVersion: Int64 = 1) throws -> Data {
        try JSONEncoder().encode(SyncPushRequest(schemaVersion: schemaVersion, changes: changes))
    }

    static func pullURL(_ server: URL, since: Int64 = 0, limit: Int = 100, device: String = "device-b", wait: Int = 0) -> URL {
        var components = URLComponents(url: server.appendingPathComponent(SyncWireFormat.pullPath), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "format", value: "1"), URLQueryItem(name: "since", value: String(since)),
            URLQueryItem(name: "limit", value: String(limit)), URLQueryItem(name: "device", value: device),
            URLQueryItem(name: "wait", value: String(wait)),
        ]
        return components.url!
    }

    /// A snapshot page request: the first page (`upTo` nil) or the one after `after`.
    static func snapshotURL(
        _ server: URL, schemaVersion: Int64 = 1, limit: Int = 100, upTo: Int64? = nil, after: SyncSnapshotPosition? = nil
    ) -> URL {
        SyncWireFormat.snapshotURL(on: server, schemaVersion: schemaVersion, limit: limit, cursor: upTo, after: after)!
    }
}
