import Foundation
import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// The sync server's endpoints over a ``SyncTransport``: JSON in, JSON out, failures as
/// ``SyncServerError``, every request bounded by a deadline.
struct SyncServerEndpoints: Sendable {
    let server: URL
    let token: String
    let transport: any SyncTransport
    /// How long a push, a pull that does not wait, or a snapshot page may take; a long poll
    /// has its wait on top.
    let timeout: Duration

    func push(_ push: SyncPushRequest) async throws -> SyncPushResponse {
        let request = SyncTransportRequest(
            method: .post, url: server.appendingPathComponent(SyncWireFormat.pushPath),
            headers: ["Content-Type": "application/json"], body: try JSONEncoder().encode(push), timeout: timeout)
        return try await send(request) { data in try JSONDecoder().decode(SyncPushResponse.self, from: data) }
    }

    func pull(
        since cursor: Int64, limit: Int, device: String, schemaVersion: Int64, wait: Int, subscriptions: [SyncSubscription] = []
    ) async throws -> SyncPullResponse {
        guard var components = URLComponents(url: server.appendingPathComponent(SyncWireFormat.pullPath), resolvingAgainstBaseURL: false)
        else { throw SyncServerError(reason: .malformed, message: "not a server URL: \(server)") }
        typealias Query = SyncWireFormat.Query
        components.queryItems = [
            URLQueryItem(name: Query.format, value: String(SyncWireFormat.version)),
            URLQueryItem(name: Query.since, value: String(cursor)), URLQueryItem(name: Query.limit, value: String(limit)),
            URLQueryItem(name: Query.device, value: device), URLQueryItem(name: Query.wait, value: String(wait)),
            URLQueryItem(name: Query.schema, value: String(schemaVersion)),
        ]
        if !subscriptions.isEmpty {
            let json = String(decoding: try JSONEncoder().encode(subscriptions), as: UTF8.self)
            components.queryItems?.append(URLQueryItem(name: Query.subscriptions, value: json))
        }
        guard let url = components.url else { throw SyncServerError(reason: .malformed, message: "not a server URL: \(server)") }
        let request = SyncTransportRequest(method: .get, url: url, timeout: .seconds(max(0, wait)) + timeout)
        let pulled = try await send(request) { data in try SyncPullResponse(json: data) }
        return try pulled.checked(limit: limit, since: cursor)
    }

    /// A snapshot page: the first (`progress` nil) or the one after `progress`.
    func snapshot(schemaVersion: Int64, progress: SyncSnapshotProgress?, limit: Int) async throws -> SyncSnapshotPage {
        guard
            let url = SyncWireFormat.snapshotURL(
                on: server, schemaVersion: schemaVersion, limit: limit, cursor: progress?.cursor, after: progress?.position)
        else { throw SyncServerError(reason: .malformed, message: "not a server URL: \(server)") }
        let page = try await send(SyncTransportRequest(method: .get, url: url, timeout: timeout)) { data in
            try SyncSnapshotPage(json: data)
        }
        return try page.checked(limit: limit, cursor: progress?.cursor)
    }

    /// The answer to `request`, read from its JSON by `read`.
    func send<Answer>(_ request: SyncTransportRequest, reading read: (Data) throws -> Answer) async throws -> Answer {
        var request = request
        request.headers["Authorization"] = "Bearer \(token)"
        let response = try await exchange(request)
        guard response.status == 200 else { throw Self.failure(status: response.status, body: response.body) }
        do {
            return try read(response.body)
        } catch {
            throw SyncServerError(
                reason: .unexpectedResponse, status: response.status, message: "the answer is not the sync protocol's: \(error)")
        }
    }

    /// The transport's answer to `request`, or `.unreachable` once its timeout has passed
    /// without one (a stalled connection or server), whatever the transport does about it.
    private func exchange(_ request: SyncTransportRequest) async throws -> SyncTransportResponse {
        try await withThrowingTaskGroup(of: SyncTransportResponse?.self) { [transport] group in
            group.addTask { try await transport.send(request) }
            group.addTask {
                try await Task.sleep(for: request.timeout)
                return nil
            }
            defer { group.cancelAll() }
            do {
                guard let answer = try await group.next(), let response = answer else {
                    throw SyncServerError(reason: .unreachable, message: "no answer within \(request.timeout)")
                }
                return response
            } catch let error as SyncServerError {
                throw error
            } catch {
                if Task.isCancelled || error is CancellationError { throw CancellationError() }
                throw SyncServerError(reason: .unreachable, message: "\(error)")
            }
        }
    }

    private static func failure(status: Int, body: Data) -> SyncServerError {
        let said = try? JSONDecoder().decode(SyncWireError.self, from: body)
        let reason: SyncWireError.Code = said?.code ?? (status >= 500 ? .unavailable : status == 401 ? .unauthorized : .unexpectedResponse)
        return SyncServerError(reason: reason, status: status, message: said?.message ?? "HTTP \(status)")
    }
}
