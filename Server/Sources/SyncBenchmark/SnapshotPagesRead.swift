import Foundation
import SQLiteStoreSyncProtocol

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An account's snapshot read as a new device reads it, page after page over HTTP, each page
/// decoded and none applied: the chain of PostgreSQL, the server, the transfer and the decoding
/// that a new device's initial sync overlaps its applying with, measured on its own. When it
/// takes about as long as the initial sync, the pages' supply bounds the sync, not the device's
/// writes.
struct SnapshotPagesRead {
    let server: URL
    let token: String
    let schemaVersion: Int64
    let limit: Int

    /// Reads every page of a new snapshot; returns how many rows they held.
    func run() async throws -> Int {
        var page = try await fetch(cursor: nil, after: nil)
        var rows = page.rows.count
        while let next = page.next {
            page = try await fetch(cursor: page.cursor, after: next)
            rows += page.rows.count
        }
        return rows
    }

    private func fetch(cursor: Int64?, after position: SyncSnapshotPosition?) async throws -> SyncSnapshotPage {
        guard let url = SyncWireFormat.snapshotURL(on: server, schemaVersion: schemaVersion, limit: limit, cursor: cursor, after: position)
        else { throw BenchmarkFailure(description: "not a server URL: \(server)") }
        var request = URLRequest(url: url)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw BenchmarkFailure(description: "a snapshot page was refused: \(String(decoding: data, as: UTF8.self))")
        }
        return try SyncSnapshotPage(json: data)
    }
}
