import Foundation

@testable import SQLiteStoreCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A server that answers every request to its host with the same canned JSON and status,
/// through `URLSession`'s own protocol machinery: the answers a real server never gives.
final class CannedServer: URLProtocol {
    private static let answers = Locked<[String: (body: Data, status: Int)]>([:])

    /// One session for the whole test run, never released: on Linux a `URLSession`'s teardown
    /// races libdispatch's event loop (swift-corelibs-foundation #4791 and its kin), and a
    /// session per test would tear one down at each test's end.
    private static let shared: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [CannedServer.self]
        return URLSession(configuration: configuration)
    }()

    /// A session whose requests to `host` get `answer` with HTTP `status`.
    static func session(host: String, answer: Data, status: Int = 200) -> URLSession {
        answers.withLock { $0[host] = (answer, status) }
        return shared
    }

    override class func canInit(with request: URLRequest) -> Bool {
        request.url?.host.map { host in answers.withLock { $0[host] != nil } } ?? false
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url, let host = url.host, let answer = Self.answers.withLock({ $0[host] }),
            let response = HTTPURLResponse(url: url, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: nil)
        else { return }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: answer.body)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}
