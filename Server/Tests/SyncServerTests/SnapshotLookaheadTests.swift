import Foundation
import SQLiteStore
import SQLiteStoreSyncProtocol
import SyncServerHarness
import Testing

@testable import StoreSyncServer

/// The snapshot pages a server computes ahead: each page served starts the next one's
/// computation, which its request then takes; a page computed ahead is byte for byte the page
/// computed when asked, whatever was pushed in between, for its own account and cursor only.
@Suite("Snapshot pages computed ahead", .serialized, .timeLimit(.minutes(3)))
struct SnapshotLookaheadTests {
    @Test("A server computing pages ahead answers every request byte for byte as one that computes none ahead")
    func sameBytesAsComputedWhenAsked() async throws {
        let fixture = try ServerFixture()
        let ahead = try await fixture.startServer()
        let whenAsked = try await fixture.startServer(options: ["--snapshot-lookahead-mb", "0"])
        let (alice, bob) = (try fixture.token(for: "alice"), try fixture.token(for: "bob"))
        let clients = try SyncedStores(count: 3)
        try await SyncSnapshotTests.writeHistory(clients.stores[0], clients.stores[1], server: ahead.url, token: alice)
        let page = { (server: SyncServerProcess, token: String, cursor: Int64?, after: SyncSnapshotPosition?) in
            let answer = try await HTTP.send(
                "GET", ServerFixture.snapshotURL(server.url, limit: 7, upTo: cursor, after: after), token: token)
            #expect(answer.status == 200, "\(answer.text)")
            return answer.body
        }
        // Alice's first page makes the server compute her second one at the same cursor.
        let first = try JSONDecoder().decode(SyncSnapshotPage.self, from: try await page(ahead, alice, nil, nil))
        let (cursor, second) = (first.cursor, try #require(first.next))
        // Then her rows change on both pages (the first one still ends at the same row), and Bob
        // writes: his latest sequence passes Alice's cursor.
        try await clients.stores[0].write { db in
            try db.execute(sql: "UPDATE items SET title = 'later' WHERE id IN ('k1', 'k10', 'k14', 'k15', 'k16', 'k17', 'k18')")
            try db.execute(sql: "DELETE FROM items WHERE id IN ('k12', 'k15')")
            try db.execute(sql: "INSERT INTO items(id, title) VALUES ('k14a', 'new'), ('k16a', 'new')")
        }
        try await SyncClient(store: clients.stores[0], server: ahead.url, token: alice).synchronize()
        try await clients.stores[2].write { db in
            try db.execute(sql: "INSERT INTO items(id, title) VALUES ('k14b', 'bob'), ('k2', 'bob'), ('k20', 'bob')")
        }
        try await SyncClient(store: clients.stores[2], server: ahead.url, token: bob).synchronize()

        // Alice's snapshot from her new cursor, page after page, while her second page at the old one is kept.
        var next: (cursor: Int64?, position: SyncSnapshotPosition?)? = (nil, nil)
        var pages = 0
        while let (cursor, position) = next {
            let asked = try await page(ahead, alice, cursor, position)
            let decoded = try JSONDecoder().decode(SyncSnapshotPage.self, from: asked)
            let label = "alice's page \(pages) after \(position.map { "\($0)" } ?? "the start")"
            #expect(asked == (try await page(whenAsked, alice, cursor, position)), "\(label)")
            #expect(pages > 0 || decoded.next == second, "\(label) ends elsewhere")
            next = decoded.next.map { (decoded.cursor, $0) }
            pages += 1
        }
        // Bob asks for the page at Alice's old cursor and position, then Alice, whose page was computed before her writes.
        for (token, name) in [(bob, "bob"), (alice, "alice")] {
            let asked = try await page(ahead, token, cursor, second)
            #expect(asked == (try await page(whenAsked, token, cursor, second)), "\(name)'s page after \(second) at \(cursor)")
        }
        #expect(pages > 3)
    }

    @Test("sync-server refuses a negative number of megabytes of pages to keep, naming the option")
    func negativeBudgetRefused() async throws {
        let fixture = try ServerFixture()
        do {
            _ = try await fixture.startServer(options: ["--snapshot-lookahead-mb=-1"])
            Issue.record("the server started")
        } catch {
            #expect("\(error)".contains("--snapshot-lookahead-mb is a number of megabytes from 0"), "\(error)")
        }
    }

    @Test("Each page served starts the next one's computation, which the next request takes instead of computing it again")
    func nextPageComputedOnce() async throws {
        let computed = Computed()
        let lookahead = SnapshotLookahead(byteBudget: 1 << 20) { key, _ in try await computed.page(key) }
        let first = SnapshotLookahead.Key(account: 1, cursor: 9, position: nil, limit: 2, schemaVersion: 1)
        var key = first
        for expected in ["a", "b", nil] {
            let page = try await lookahead.page(key)
            #expect(page.next?.key == expected)
            if let next = page.next {
                key = key.next(at: next)
                try await computed.waitUntilAsked(for: key)
            }
        }
        #expect(await computed.asked == ["start", "a", "b"])
    }

    @Test("Once a page's computation knows where the next one starts, that one starts too, two pages of a snapshot ahead at most")
    func nextPagesStartedWhenKnown() async throws {
        let computed = Computed(pages: 6)
        let lookahead = SnapshotLookahead(byteBudget: 1 << 20) { key, nextKnown in try await computed.page(key, telling: nextKnown) }
        let first = SnapshotLookahead.Key(account: 1, cursor: 9, position: nil, limit: 2, schemaVersion: 1)
        let key = { (name: String) in first.next(at: SyncSnapshotPosition(table: "items", key: name)) }
        _ = try await lookahead.page(first)
        try await computed.waitUntilAsked(for: key("b"))
        try await Task.sleep(for: .milliseconds(50))
        #expect(await computed.asked == ["start", "a", "b"])  // "c" waits: "a" and "b" are ahead
        _ = try await lookahead.page(key("a"))
        try await computed.waitUntilAsked(for: key("c"))
        let (bAhead, cAhead) = (await lookahead.isAhead(key("b")), await lookahead.isAhead(key("c")))
        #expect(bAhead && cAhead)
        for name in ["b", "c", "d", "e"] { _ = try await lookahead.page(key(name)) }
        #expect(await computed.asked == ["start", "a", "b", "c", "d", "e"])  // each page once, none past the last
    }

    @Test(
        "A page computed ahead is kept for its own key only: the bytes of its position, its account, its cursor, its limit and its schema version"
    )
    func keptForItsKeyOnly() async throws {
        let computed = Computed()
        let lookahead = SnapshotLookahead(byteBudget: 1 << 20) { key, _ in try await computed.page(key) }
        let first = SnapshotLookahead.Key(account: 1, cursor: 9, position: nil, limit: 2, schemaVersion: 1)
        _ = try await lookahead.page(first)
        let ahead = first.next(at: SyncSnapshotPosition(table: "items", key: "a"))
        try await computed.waitUntilAsked(for: ahead)
        let others = [
            SnapshotLookahead.Key(account: 2, cursor: 9, position: ahead.position, limit: 2, schemaVersion: 1),
            SnapshotLookahead.Key(account: 1, cursor: 8, position: ahead.position, limit: 2, schemaVersion: 1),
            SnapshotLookahead.Key(account: 1, cursor: 9, position: ahead.position, limit: 3, schemaVersion: 1),
            SnapshotLookahead.Key(account: 1, cursor: 9, position: ahead.position, limit: 2, schemaVersion: 2),
            SnapshotLookahead.Key(
                account: 1, cursor: 9, position: SyncSnapshotPosition(table: "items", key: "A"), limit: 2, schemaVersion: 1),
        ]
        for other in others {
            let before = await computed.count(of: other)
            _ = try await lookahead.page(other)
            #expect(await computed.count(of: other) == before + 1, "\(other) was served another key's page")
        }
        // Canonically equivalent keys are two rows: "é" composed and decomposed.
        let composed = SnapshotLookahead.Key(
            account: 1, cursor: 9, position: .init(table: "items", key: "\u{E9}"), limit: 2, schemaVersion: 1)
        let decomposed = SnapshotLookahead.Key(
            account: 1, cursor: 9, position: .init(table: "items", key: "e\u{301}"), limit: 2, schemaVersion: 1)
        #expect(composed != decomposed)
        _ = try await lookahead.page(ahead)
        #expect(await computed.count(of: ahead) == 1)
    }

    @Test("A page computed ahead that failed, expired or went over the byte budget is computed again when asked for")
    func droppedPagesComputedAgain() async throws {
        let computed = Computed(failing: ["a"])
        let lookahead = SnapshotLookahead(byteBudget: 3 * Computed.pageBytes / 2, keptFor: .seconds(30)) { key, _ in
            try await computed.page(key)
        }
        let start = { (cursor: Int64) in SnapshotLookahead.Key(account: 1, cursor: cursor, position: nil, limit: 2, schemaVersion: 1) }
        let a = { (cursor: Int64) in start(cursor).next(at: SyncSnapshotPosition(table: "items", key: "a")) }
        // Failed: its first computation throws.
        _ = try await lookahead.page(start(1))
        try await computed.waitUntilAsked(for: a(1))
        #expect(try await lookahead.page(a(1)).next?.key == "b")
        #expect(await computed.count(of: a(1)) == 2)
        // Over the budget: the page ahead of cursor 2 is dropped for cursor 3's.
        _ = try await lookahead.page(start(2))
        _ = try await lookahead.page(start(3))
        for _ in 0..<5_000 {
            let (keptFor3, keptFor2) = (await lookahead.holds(a(3)), await lookahead.holds(a(2)))
            if keptFor3 && !keptFor2 { break }
            try await Task.sleep(for: .milliseconds(1))
        }
        // Cursor 3's first: asking for cursor 2's page computes its next one ahead, which, over
        // the budget, drops the oldest page kept, cursor 3's, if that one is not taken yet.
        _ = try await lookahead.page(a(3))
        _ = try await lookahead.page(a(2))
        #expect(await computed.count(of: a(2)) == 2)
        #expect(await computed.count(of: a(3)) == 1)
        // Expired.
        let brief = SnapshotLookahead(byteBudget: 1 << 20, keptFor: .milliseconds(1)) { key, _ in try await computed.page(key) }
        _ = try await brief.page(start(4))
        try await computed.waitUntilAsked(for: a(4))
        try await Task.sleep(for: .milliseconds(20))
        _ = try await brief.page(a(4))
        #expect(await computed.count(of: a(4)) == 2)
    }
}

/// Pages of a snapshot, "start" → "a" → "b" → … (three pages unless told), each of
/// ``pageBytes`` bytes, with the keys asked for in order; each name in `failing` fails the first time.
private actor Computed {
    static let pageBytes = 100
    private(set) var asked: [String] = []
    private var keys: [SnapshotLookahead.Key] = []
    private var failing: Set<String>
    private let names: [String]

    init(pages: Int = 3, failing: Set<String> = []) {
        self.failing = failing
        names = ["start"] + (0..<pages - 1).map { String(UnicodeScalar(UInt8(ascii: "a") + UInt8($0))) }
    }

    /// The page for `key`, telling `nextKnown` where the next one starts first, as the server does.
    func page(
        _ key: SnapshotLookahead.Key, telling nextKnown: @Sendable (SyncSnapshotPosition) async -> Void = { _ in }
    ) async throws -> SnapshotPageBody {
        let name = key.position?.key ?? "start"
        asked.append(name)
        keys.append(key)
        if failing.remove(name) != nil { throw SnapshotPageError("\(name) fails once") }
        let next = names.firstIndex(of: name).flatMap { $0 + 1 < names.count ? names[$0 + 1] : nil }
            .map { SyncSnapshotPosition(table: "items", key: $0) }
        if let next { await nextKnown(next) }
        return SnapshotPageBody(json: Data(repeating: 0, count: Self.pageBytes), next: next)
    }

    func count(of key: SnapshotLookahead.Key) -> Int { keys.count { $0 == key } }

    /// Returns once `key` was asked for, which a lookahead does in the background.
    func waitUntilAsked(for key: SnapshotLookahead.Key) async throws {
        for _ in 0..<5_000 where !keys.contains(key) { try await Task.sleep(for: .milliseconds(1)) }
        #expect(keys.contains(key), "\(key) was never computed")
    }
}
