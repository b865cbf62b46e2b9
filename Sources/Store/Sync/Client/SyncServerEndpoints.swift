import Foundation
import SQLiteStoreSyncProtocol

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The sync server's two endpoints over `URLSession`: JSON in, JSON out, failures as
/// ``SyncServerError``, cancellation cancelling the request.
struct SyncHTTPTransport: Sendable {
    let server: URL
    let token: String
    let session: URLSession

    func push(_ push: SyncPushRequest) async throws -> SyncPushResponse {
        var request = URLRequest(url: server.appendingPathComponent(SyncWireFormat.pushPath))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(push)
        return try await send(request, expecting: SyncPushResponse.self)
    }

    func pull(since cursor: Int64, limit: Int, device: String, wait: Int) async throws -> SyncPullResponse {
        guard var components = URLComponents(url: server.appendingPathComponent(SyncWireFormat.pullPath), resolvingAgainstBaseURL: false)
        else { throw SyncServerError(reason: .malformed, message: "not a server URL: \(server)") }
        typealias Query = SyncWireFormat.Query
        components.queryItems = [
            URLQueryItem(name: Query.format, value: String(SyncWireFormat.version)),
            URLQueryItem(name: Query.since, value: String(cursor)), URLQueryItem(name: Query.limit, value: String(limit)),
            URLQueryItem(name: Query.device, value: device), URLQueryItem(name: Query.wait, value: String(wait)),
        ]
        guard let url = components.url else { throw SyncServerError(reason: .malformed, message: "not a server URL: \(server)") }
        var request = URLRequest(url: url)
        request.timeoutInterval = TimeInterval(wait + 30)
        let pulled = try await send(request) { data in try SyncPullResponse(json: data) }
        return try pulled.checked(limit: limit, since: cursor)
    }

    /// A snapshot page: the first (`progress` nil) or the one after `progress`.
    func snapshot(schemaVersion: Int64, progress: SyncSnapshotProgress?, limit: Int) async throws -> SyncSnapshotPage {
        guard
            let url = SyncWireFormat.snapshotURL(
                on: server, schemaVersion: schemaVersion, limit: limit, cursor: progress?.cursor, after: progress?.position)
        else { throw SyncServerError(reason: .malformed, message: "not a server URL: \(server)") }
        let page = try await send(URLRequest(url: url)) { data in try SyncSnapshotPage(json: data) }
        return try page.checked(limit: limit, cursor: progress?.cursor)
    }

    private func send<Answer: Decodable>(_ request: URLRequest, expecting: Answer.Type) async throws -> Answer {
        try await send(request) { data in try JSONDecoder().decode(Answer.self, from: data) }
    }

    /// The answer to `request`, read from its JSON by `read`.
    private func send<Answer>(_ request: URLRequest, reading read: (Data) throws -> Answer) async throws -> Answer {
        var request = request
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await exchange(request)
        guard let status = (response as? HTTPURLResponse)?.statusCode else {
            throw SyncServerError(reason: .unexpectedResponse, message: "not an HTTP response")
        }
        guard status == 200 else { throw Self.failure(status: status, body: data) }
        do {
            return try read(data)
        } catch {
            throw SyncServerError(reason: .unexpectedResponse, status: status, message: "the answer is not the sync protocol's: \(error)")
        }
    }

    /// The request's answer; cancelling the calling task cancels the request and throws
    /// `CancellationError` at once, without waiting for `URLSession` to report the cancellation.
    private func exchange(_ request: URLRequest) async throws -> (Data, URLResponse) {
        let exchange = PendingExchange()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        exchange.finish(.failure(Self.failure(error)))
                    } else if let response {
                        exchange.finish(.success((data ?? Data(), response)))
                    } else {
                        exchange.finish(.failure(SyncServerError(reason: .unexpectedResponse, message: "no response")))
                    }
                }
                exchange.start(task, continuation: continuation)
            }
        } onCancel: {
            exchange.cancel()
        }
    }

    private static func failure(_ error: any Error) -> any Error {
        if (error as? URLError)?.code == .cancelled { return CancellationError() }
        return SyncServerError(reason: .unreachable, message: error.localizedDescription)
    }

    private static func failure(status: Int, body: Data) -> SyncServerError {
        let said = try? JSONDecoder().decode(SyncWireError.self, from: body)
        let reason: SyncWireError.Code = said?.code ?? (status >= 500 ? .unavailable : status == 401 ? .unauthorized : .unexpectedResponse)
        return SyncServerError(reason: reason, status: status, message: said?.message ?? "HTTP \(status)")
    }
}

/// One request in flight: its task and the continuation waiting for it, resumed exactly once,
/// by the answer or by a cancellation, whichever comes first (a cancelled request's completion
/// may come late, or on some platforms' `URLSession` not at all).
///
/// On Linux a cancelled request is abandoned, not cancelled: FoundationNetworking's
/// `URLSessionTask.cancel()` races the task's own completion and, when the answer arrives as
/// the cancellation does, stops the process ("Trying to access a behaviour for a task that in
/// not in the registry", Swift 6.3). The abandoned request ends by itself: a long poll when the
/// server's wait ends, any other with its answer or its timeout.
private final class PendingExchange: Sendable {
    typealias Waiter = CheckedContinuation<(Data, URLResponse), any Error>
    private let state = Locked<(waiter: Waiter?, task: URLSessionDataTask?, isCancelled: Bool)>((nil, nil, false))

    /// Runs `task` for `continuation`, or resumes it with `CancellationError` if cancelled already.
    func start(_ task: URLSessionDataTask, continuation: Waiter) {
        let cancelled = state.withLock { state in
            state.task = task
            if !state.isCancelled { state.waiter = continuation }
            return state.isCancelled
        }
        if cancelled { continuation.resume(throwing: CancellationError()) } else { task.resume() }
    }

    /// Resumes the waiter with the request's outcome, unless a cancellation resumed it before.
    func finish(_ outcome: Result<(Data, URLResponse), any Error>) {
        let waiter = state.withLock { state in
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: outcome)
    }

    /// Cancels the request (abandons it, on Linux) and resumes the waiter with
    /// `CancellationError` now.
    func cancel() {
        let (waiter, task) = state.withLock { state in
            state.isCancelled = true
            defer { state.waiter = nil }
            return (state.waiter, state.task)
        }
        if let task { Self.stop(task) }
        waiter?.resume(throwing: CancellationError())
    }

    private static func stop(_ task: URLSessionDataTask) {
        #if !canImport(FoundationNetworking)
        task.cancel()
        #endif
    }
}
