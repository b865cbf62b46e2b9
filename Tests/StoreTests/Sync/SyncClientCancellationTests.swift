import Foundation
import SQLiteStoreSyncProtocol
import TestSupport
import Testing

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback port whose connections the kernel accepts into the listen backlog and nobody
/// ever answers: a server that hangs.
private final class SilentServer {
    private let socketDescriptor: Int32
    let port: UInt16

    init() throws {
        #if os(Linux)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        socketDescriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && listen(descriptor, 8) == 0
                    && getsockname(descriptor, address, &length) == 0
            }
        }
        guard descriptor >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(socketDescriptor) }
}

/// Cancelling a sync ends it at once, and a server that does not answer fails it in time,
/// whatever the server does.
@Suite("Sync client cancellation", .timeLimit(.minutes(10)))
struct SyncClientCancellationTests {
    @Test("Cancelling a sync whose server never answers throws CancellationError and acknowledges nothing")
    func cancelWhileTheServerHangs() async throws {
        let silent = try SilentServer()
        let fixture = try SyncFixture(stores: 1)
        let store = try fixture.open(0)
        let server = try #require(URL(string: "http://127.0.0.1:\(silent.port)"))
        try await store.write { db in try db.execute(sql: "INSERT INTO lists(id, name) VALUES ('l', 'waits')") }
        let sync = Task { try await SyncClient(store: store, server: server, token: "t").synchronize() }
        try await Task.sleep(for: .milliseconds(300))  // the push is on the wire, unanswered
        sync.cancel()
        await #expect(throws: CancellationError.self) { try await sync.value }
        let pending = try store.sync.pendingChanges(limit: 10)
        #expect(!pending.changes.isEmpty)  // nothing acknowledged: the next sync sends it again
    }

    @Test("A request to a server that never answers fails as unreachable once its timeout has passed, and acknowledges nothing")
    func stalledServerTimesOut() async throws {
        let silent = try SilentServer()
        let fixture = try SyncFixture(stores: 1)
        let store = try fixture.open(0)
        try await store.write { db in try db.execute(sql: "INSERT INTO lists(id, name) VALUES ('l', 'waits')") }
        var client = SyncClient(store: store, server: try #require(URL(string: "http://127.0.0.1:\(silent.port)")), token: "t")
        client.requestTimeout = .milliseconds(200)
        let error = await #expect(throws: SyncServerError.self) { try await client.synchronize() }
        #expect(error?.reason == .unreachable && error?.isTransient == true, "\(String(describing: error))")
        #expect(try store.sync.pendingChanges(limit: 10).changes.count == 2)
    }

    /// The deadline of every request races its answer: cancelling at random moments of the
    /// microseconds a canned answer takes ends each request in its answer or in
    /// `CancellationError`, never in a timeout or a hang.
    @Test("Requests cancelled as their answers arrive end in the answer or in CancellationError")
    func cancelAsTheAnswerArrives() async throws {
        let answer = try JSONEncoder().encode(SyncPushResponse(stored: 0))
        let endpoints = SyncServerEndpoints(
            server: try #require(URL(string: "http://canned.invalid")), token: "t", transport: CannedTransport(answer: answer),
            timeout: .seconds(60))
        var generator = SeededGenerator()
        var outcomes = (answered: 0, cancelled: 0)
        for _ in 0..<2_000 {
            let push = Task { try await endpoints.push(SyncPushRequest(schemaVersion: 0, changes: [])) }
            try await Task.sleep(for: .microseconds(Int.random(in: 0...200, using: &generator)))
            push.cancel()
            do {
                #expect(try await push.value.stored == 0)
                outcomes.answered += 1
            } catch is CancellationError {
                outcomes.cancelled += 1
            }
        }
        #expect(outcomes.answered > 0 && outcomes.cancelled > 0, "seed \(generator.seed): \(outcomes)")
    }
}
