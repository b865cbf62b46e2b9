import Foundation
import SQLiteStore

#if os(Linux) || os(Android)
import AsyncHTTPClient
#endif

/// A transport with connections of its own, so that a fault the balancer sets meets the
/// requests of one sync only, none kept from an earlier one: AsyncHTTPClient on Linux,
/// `URLSession` elsewhere.
enum OwnTransport {
    static func make() -> any SyncTransport {
        #if os(Linux) || os(Android)
        AsyncHTTPClientTransport(configuration: HTTPClient.Configuration())
        #else
        URLSessionTransport(session: URLSession(configuration: .ephemeral))
        #endif
    }

    /// Closes `transport`'s connections.
    static func shutDown(_ transport: any SyncTransport) async {
        #if os(Linux) || os(Android)
        try? await (transport as? AsyncHTTPClientTransport)?.shutdown()
        #endif
    }
}

extension LoopbackBalancer.Fault {
    /// A random fault: the request cut at any of its first 600 bytes, the answer held back 50 ms
    /// to 2 s (past a one-second timeout, sometimes), or the answers cut at any of their first
    /// `answerBytes` bytes, most often within the first 400 (the status line and the headers).
    static func random(using random: inout some RandomNumberGenerator, answerBytes: Int) -> Self {
        switch Int.random(in: 0..<8, using: &random) {
        case 0: .cutRequest(afterBytes: Int.random(in: 0..<600, using: &random))
        case 1: .stallAnswer(milliseconds: Int64.random(in: 50...2_000, using: &random))
        case 2: .cutAnswer(afterBytes: Int.random(in: 0..<answerBytes, using: &random))
        default: .cutAnswer(afterBytes: Int.random(in: 0..<400, using: &random))
        }
    }
}
