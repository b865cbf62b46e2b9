import Foundation
import SQLiteStoreCore

/// Carries one HTTP exchange between ``SyncClient`` and a sync server.
///
/// The library's own are `AsyncHTTPClientTransport` on Linux and `URLSessionTransport` on
/// Apple platforms; ``SyncClient`` picks the platform's by default. Another transport (a test
/// double, an app's own HTTP stack) conforms by sending the request and returning the whole
/// answer.
///
/// A transport throws ``SyncServerError`` with reason `.unreachable` when no whole answer came
/// (the connection refused, cut anywhere in the request or the answer, or `timeout` passed),
/// and `CancellationError` when the calling task is cancelled: it must then end the exchange
/// promptly. It never ends the process, whatever the network or the server does.
public protocol SyncTransport: Sendable {
    /// Sends `request` and returns the server's answer, whatever its status.
    func send(_ request: SyncTransportRequest) async throws -> SyncTransportResponse
}

/// One request to a sync server.
public struct SyncTransportRequest: Sendable, Hashable {
    /// The HTTP methods the sync protocol uses.
    public enum Method: String, Sendable, Hashable {
        /// `GET`: pulls and snapshot pages.
        case get = "GET"
        /// `POST`: pushes.
        case post = "POST"
    }

    /// The request's method.
    public var method: Method
    /// The full URL, with its query.
    public var url: URL
    /// The header fields, by name.
    public var headers: [String: String]
    /// The body, for a push.
    public var body: Data?
    /// How long the whole exchange may take, from the first byte sent to the answer's last.
    public var timeout: Duration

    /// A request from its parts.
    public init(method: Method, url: URL, headers: [String: String] = [:], body: Data? = nil, timeout: Duration) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// A sync server's whole answer.
public struct SyncTransportResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// The body, whole.
    public var body: Data

    /// An answer from its parts.
    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}

extension SyncTransport where Self == PlatformSyncTransport {
    /// The platform's transport: `AsyncHTTPClientTransport` on a process-wide `HTTPClient`
    /// on Linux, `URLSessionTransport` on `URLSession.shared` on Apple platforms.
    public static var platformDefault: PlatformSyncTransport { PlatformSyncTransport() }
}
