import AsyncHTTPClient
import Foundation
import NIOCore

/// The HTTP of the benchmark's load generators: AsyncHTTPClient on NIO's event loops, which
/// holds thousands of connections open on few threads and costs the cores less a request than
/// `URLSession` (libcurl on Linux), so that they go to the servers and PostgreSQL.
struct BenchmarkHTTP: Sendable {
    private let client: HTTPClient

    /// What a request got back.
    struct Answer {
        let status: Int
        let body: ByteBuffer
    }

    /// A client that keeps up to `connections` connections open to each server.
    init(connections: Int) {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(600), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        configuration.timeout = .init(connect: .seconds(60), read: .seconds(120))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Sends `body` (a POST) or nothing (a GET) to `url` with the bearer `token`, and reads the
    /// whole answer; a request gets up to `timeout`.
    func send(_ url: String, token: String, body: ByteBuffer? = nil, timeout: Duration = .seconds(120)) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let body {
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(body)
        }
        let response = try await client.execute(request, timeout: .nanoseconds(Int64(timeout.seconds * 1e9)))
        return Answer(status: Int(response.status.code), body: try await response.body.collect(upTo: 64 << 20))
    }

    /// Closes the connections; the client is not used after.
    func shutdown() async throws { try await client.shutdown() }
}
