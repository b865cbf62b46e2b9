import Foundation
import Testing

@testable import SQLiteStoreCore

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

/// Cancelling a sync ends it at once, whatever the server does.
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
}
