import Foundation
import SQLiteStoreSyncProtocol

/// The sharing endpoints of a sync server (``SyncWireFormat/sharesPath`` and the others).
extension SyncServerEndpoints {
    func share(_ request: SyncShareRequest) async throws -> SyncShareMembers {
        let transportRequest = SyncTransportRequest(
            method: .post, url: server.appendingPathComponent(SyncWireFormat.sharesPath),
            headers: ["Content-Type": "application/json"], body: try JSONEncoder().encode(request), timeout: timeout)
        return try await send(transportRequest) { try JSONDecoder().decode(SyncShareMembers.self, from: $0) }
    }

    func members(table: String, key: SyncWireValue) async throws -> SyncShareMembers {
        typealias Query = SyncWireFormat.Query
        let url = try url(
            SyncWireFormat.sharesPath,
            [Query.table: table, Query.key: String(decoding: try JSONEncoder().encode(key), as: UTF8.self)])
        return try await send(SyncTransportRequest(method: .get, url: url, timeout: timeout)) {
            try JSONDecoder().decode(SyncShareMembers.self, from: $0)
        }
    }

    /// The shares the account is a member of; none from a server without sharing, which answers
    /// so (a 404 is an error like any other).
    func memberships() async throws -> [SyncMembership] {
        let url = try url(SyncWireFormat.membershipsPath, [:])
        return try await send(SyncTransportRequest(method: .get, url: url, timeout: timeout)) {
            try JSONDecoder().decode(SyncMemberships.self, from: $0)
        }.shares
    }

    func sharedPage(_ share: String, after position: SyncSnapshotPosition?, limit: Int) async throws -> SyncSharedPage {
        typealias Query = SyncWireFormat.Query
        var items = [Query.share: share, Query.limit: String(limit)]
        if let position { (items[Query.afterTable], items[Query.afterKey]) = (position.table, position.key) }
        let url = try url(SyncWireFormat.sharedPath, items)
        let page = try await send(SyncTransportRequest(method: .get, url: url, timeout: timeout)) {
            try JSONDecoder().decode(SyncSharedPage.self, from: $0)
        }
        guard page.rows.count <= limit else {
            throw SyncServerError(
                reason: .unexpectedResponse, message: "the page holds \(page.rows.count) rows, more than the \(limit) asked for")
        }
        return page
    }

    /// The URL of `path` on the server with the format and `items` as its query.
    func url(_ path: String, _ items: [String: String]) throws -> URL {
        guard var components = URLComponents(url: server.appendingPathComponent(path), resolvingAgainstBaseURL: false) else {
            throw SyncServerError(reason: .malformed, message: "not a server URL: \(server)")
        }
        components.queryItems =
            [URLQueryItem(name: SyncWireFormat.Query.format, value: String(SyncWireFormat.version))]
            + items.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        guard let url = components.url else { throw SyncServerError(reason: .malformed, message: "not a server URL: \(server)") }
        return url
    }
}
