import Foundation
import SQLiteStoreSyncProtocol
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

    /// A long poll may wait a minute for a change. Told to stop, the server answers the polls it
    /// holds at once, with what there is (nothing), and stops: its shutdown used to wait for
    /// them, 25 s for a waiting `SyncClient`.
    @Test("Told to stop while a device waits in a long poll, it answers the poll with nothing and stops")
    func stopsDuringLongPoll() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.startServer()
        let token = try fixture.token(for: "alice")
        #expect(try await HTTP.send("GET", ServerFixture.pullURL(server.url), token: token).status == 200)
        let poll = Task { try await HTTP.send("GET", ServerFixture.pullURL(server.url, wait: 60), token: token, timeout: 120) }
        try await Task.sleep(for: .seconds(2))  // for the server to take the poll and wait in it
        try server.endInput()
        #expect(try await server.exitStatus(waitingUpTo: .seconds(30)) == 0, "the poll waits 60 s")
        let answer = try await poll.value
        #expect(answer.status == 200, "\(answer.text)")
        #expect(try answer.decode(SyncPullResponse.self).changes.isEmpty)
    }
}
