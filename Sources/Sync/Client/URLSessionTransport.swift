// Every platform but those where Package.swift links AsyncHTTPClient.
#if !os(Linux) && !os(Android)
import Foundation
import SQLiteStoreCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport of Apple platforms (see ``SyncTransport``): `URLSession`, with no other
/// dependency. Not on Linux, where FoundationNetworking ends the process on some cut
/// connections: `AsyncHTTPClientTransport` serves there.
public struct URLSessionTransport: SyncTransport {
    /// The session that carries the requests.
    public let session: URLSession

    /// A transport on `session`, `URLSession.shared` by default.
    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func send(_ request: SyncTransportRequest) async throws -> SyncTransportResponse {
        var outgoing = URLRequest(url: request.url)
        outgoing.httpMethod = request.method.rawValue
        for (name, value) in request.headers { outgoing.setValue(value, forHTTPHeaderField: name) }
        outgoing.httpBody = request.body
        let (seconds, attoseconds) = request.timeout.components
        outgoing.timeoutInterval = TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
        let (data, response) = try await exchange(outgoing)
        guard let status = (response as? HTTPURLResponse)?.statusCode else {
            throw SyncServerError(reason: .unexpectedResponse, message: "not an HTTP response")
        }
        return SyncTransportResponse(status: status, body: data)
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
                        exchange.finish(.failure(SyncServerError(reason: .unreachable, message: "no response")))
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
}

/// One request in flight: its task and the continuation waiting for it, resumed exactly once,
/// by the answer or by a cancellation, whichever comes first (a cancelled request's completion
/// may come late).
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

    /// Cancels the request and resumes the waiter with `CancellationError` now.
    func cancel() {
        let (waiter, task) = state.withLock { state in
            state.isCancelled = true
            defer { state.waiter = nil }
            return (state.waiter, state.task)
        }
        task?.cancel()
        waiter?.resume(throwing: CancellationError())
    }
}

/// The platform's transport (see ``SyncTransport/platformDefault``): on Apple platforms, `URLSession`.
public typealias PlatformSyncTransport = URLSessionTransport
#endif
