// Linux and Android only, as Package.swift links AsyncHTTPClient (a module a build merely has
// around elsewhere must not give Apple platforms a second platform transport).
#if os(Linux) || os(Android)
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SQLiteStoreCore

/// The Linux transport (see ``SyncTransport``): AsyncHTTPClient on SwiftNIO, with its pool of
/// connections. FoundationNetworking's `URLSession` ends the process when a connection closes
/// inside an answer's head; this transport reports that, as any cut, as `.unreachable`.
public final class AsyncHTTPClientTransport: SyncTransport {
    /// The client whose connections carry the requests.
    public let client: HTTPClient
    /// The most bytes an answer's body may hold; a longer one is `.unreachable`, never read whole.
    public let maximumAnswerBytes: Int
    private let ownsClient: Bool

    /// A transport on `client`, by default the process-wide `HTTPClient.shared`, which needs no
    /// shutdown; a client of your own is yours to shut down.
    public init(client: HTTPClient = .shared, maximumAnswerBytes: Int = 256 << 20) {
        self.client = client
        self.maximumAnswerBytes = maximumAnswerBytes
        ownsClient = false
    }

    /// A transport on a client of its own, made with `configuration`, whose connections no
    /// other transport shares; ``shutdown()`` closes them (or releasing the transport does).
    public init(configuration: HTTPClient.Configuration, maximumAnswerBytes: Int = 256 << 20) {
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        self.maximumAnswerBytes = maximumAnswerBytes
        ownsClient = true
    }

    deinit {
        // A client not shut down before its release stops a debug build: shut it down now if
        // ``shutdown()`` was not called (a second shutdown only reports that it was).
        if ownsClient { client.shutdown(queue: .global()) { _ in } }
    }

    /// Closes the connections of the transport's own client, once its requests have ended;
    /// does nothing for a client given to it.
    public func shutdown() async throws {
        guard ownsClient else { return }
        try await client.shutdown()
    }

    public func send(_ request: SyncTransportRequest) async throws -> SyncTransportResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = request.method == .post ? .POST : .GET
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let (seconds, attoseconds) = request.timeout.components
        let timeout = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        do {
            let response = try await client.execute(outgoing, timeout: timeout)
            let body = try await response.body.collect(upTo: maximumAnswerBytes)
            return SyncTransportResponse(status: Int(response.status.code), body: Data(body.readableBytesView))
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw SyncServerError(reason: .unreachable, message: "no whole answer from \(request.url.host ?? "the server"): \(error)")
        }
    }
}

/// The platform's transport (see ``SyncTransport/platformDefault``): on Linux, AsyncHTTPClient.
public typealias PlatformSyncTransport = AsyncHTTPClientTransport
#endif
