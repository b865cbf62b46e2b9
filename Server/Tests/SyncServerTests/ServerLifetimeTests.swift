import Foundation
import SyncServerHarness
import Testing

/// How long a `sync-server` that the tests or the benchmark start lives: no longer than they do.
@Suite("sync-server's lifetime", .timeLimit(.minutes(2)))
struct ServerLifetimeTests {
    @Test("Started as a child, it stops gracefully when its parent's end of its standard input closes, as at the parent's end")
    func stopsAtEndOfInput() async throws {
        let server = try await ServerFixture().startServer()
        #expect(try await server.exitStatus(waitingUpTo: .milliseconds(200)) == nil, "it serves until then")
        try server.endInput()
        #expect(try await server.exitStatus(waitingUpTo: .seconds(30)) == 0)
    }
}
