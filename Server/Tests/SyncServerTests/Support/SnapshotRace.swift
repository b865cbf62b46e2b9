import Foundation
import SQLiteStoreSyncProtocol
import Testing

/// Devices reading their accounts' snapshots at once from one server, which computes each
/// reader's next page ahead (`SnapshotLookahead`), one page at a time in an order the caller
/// picks, with writes between the pages that move the accounts' cursors. Every page is compared
/// byte for byte with the answer of a server that computes none ahead (`--snapshot-lookahead-mb 0`)
/// to the same request.
///
/// Why pages and not only the stores that read them: a client refuses a page at another cursor
/// than its snapshot's, and its next sync asks again from the last page it applied, so that its
/// rows converge all the same; and it cannot tell another account's page at its own cursor from
/// its own. A page compared when it is served is found out at once, whoever asked for it.
///
/// Readers alone rarely ask for a page that the server keeps for another key: two snapshots
/// meet at one position only by chance, and two accounts' snapshots never share a cursor (an
/// account's cursor is its latest server sequence, and the sequence is one for all accounts). So
/// between the readers' turns, ``probe(_:)`` asks for the page a reader asks for next as two
/// other devices may: one of the other account naming the same cursor (a device may name any
/// cursor up to its account's latest sequence, and a hostile one would, to read another
/// account's rows), and one of the same account at the cursor before.
struct SnapshotRace {
    /// A device reading its account's snapshot, page after page.
    struct Reader {
        /// The reader's name in failures.
        let name: String
        /// Its account's index in ``SnapshotRace/tokens``.
        let account: Int
        /// The most rows a page holds.
        let limit: Int
        /// The round in which it asks for its first page.
        let startRound: Int
        /// Its snapshot's cursor, once it read the first page.
        fileprivate(set) var cursor: Int64?
        /// Where its next page starts (nil: at the first row).
        fileprivate(set) var position: SyncSnapshotPosition?
        /// Whether it read the snapshot's last page.
        fileprivate(set) var isComplete = false

        /// Its next request, in words.
        var nextPage: String {
            "page after \(position.map { "\($0)" } ?? "the start") at \(cursor.map { "cursor \($0)" } ?? "the latest cursor")"
        }

        /// A reader of `account`'s snapshot in pages of `limit` rows, from round `startRound` on.
        init(name: String, account: Int, limit: Int, startRound: Int) {
            (self.name, self.account, self.limit, self.startRound) = (name, account, limit, startRound)
        }
    }

    /// The server that computes pages ahead, whose pages are checked.
    let server: URL
    /// A server that computes none ahead: its pages are what the server's must be.
    let reference: URL
    /// Each account's token, by account index.
    let tokens: [String]
    /// The readers, each with how far it read.
    private(set) var readers: [Reader]
    /// Pages compared with the reference's.
    private(set) var comparedPages = 0
    /// Probes of another account's cursor that the server answered with a page (it refuses a
    /// cursor past the account's latest sequence).
    private(set) var crossAccountPages = 0

    /// A race of `readers` on `server`, checked against `reference`, with each account's token.
    init(server: URL, reference: URL, tokens: [String], readers: [Reader]) {
        (self.server, self.reference, self.tokens, self.readers) = (server, reference, tokens, readers)
    }

    /// Whether every reader read its snapshot's last page.
    var isComplete: Bool { readers.allSatisfy(\.isComplete) }

    /// The readers that asked for their first page by `round` and have pages left.
    func reading(in round: Int) -> [Int] { readers.indices.filter { readers[$0].startRound <= round && !readers[$0].isComplete } }

    /// The readers whose next page the server is computing or keeps: they read a page and have more to read.
    var midSnapshot: [Int] { readers.indices.filter { readers[$0].cursor != nil && !readers[$0].isComplete } }

    /// Reader `index`'s next page, compared with the reference's.
    mutating func readPage(_ index: Int) async throws {
        let reader = readers[index]
        let page = try await comparedPage(
            token: tokens[reader.account], cursor: reader.cursor, position: reader.position, limit: reader.limit,
            label: "\(reader.name)'s \(reader.nextPage)")
        guard let page else {
            Issue.record("\(reader.name) was refused a page of its own snapshot")
            readers[index].isComplete = true
            return
        }
        readers[index].cursor = page.cursor
        readers[index].position = page.next
        readers[index].isComplete = page.next == nil
    }

    /// Asks for reader `index`'s next page as a device of the other account at the same cursor,
    /// and as one of the same account at the cursor before, each compared with the reference's.
    mutating func probe(_ index: Int) async throws {
        let reader = readers[index]
        guard let cursor = reader.cursor else { return }
        let other = (reader.account + 1) % tokens.count
        let crossAccount = try await comparedPage(
            token: tokens[other], cursor: cursor, position: reader.position, limit: reader.limit,
            label: "\(reader.name)'s \(reader.nextPage), asked for by account \(other)")
        if crossAccount != nil { crossAccountPages += 1 }
        _ = try await comparedPage(
            token: tokens[reader.account], cursor: max(cursor - 1, 0), position: reader.position, limit: reader.limit,
            label: "\(reader.name)'s \(reader.nextPage), asked for at the cursor before")
    }

    /// The page `token` is answered by ``server`` (nil when refused), which must be byte for
    /// byte the reference's answer to the same request; a first page is asked of the reference
    /// at the cursor the server gave it (a push in between would move the latest).
    private mutating func comparedPage(
        token: String, cursor: Int64?, position: SyncSnapshotPosition?, limit: Int, label: String
    ) async throws -> SyncSnapshotPage? {
        let served = try await HTTP.send(
            "GET", ServerFixture.snapshotURL(server, limit: limit, upTo: cursor, after: position), token: token)
        let page = served.status == 200 ? try served.decode(SyncSnapshotPage.self) : nil
        let expected = try await HTTP.send(
            "GET", ServerFixture.snapshotURL(reference, limit: limit, upTo: cursor ?? page?.cursor, after: position), token: token)
        #expect(Self.same(served, expected), "\(label): served \(Self.summary(served)), computed when asked \(Self.summary(expected))")
        comparedPages += 1
        return page
    }

    /// Whether two answers are the same: pages byte for byte, refusals by their code and message
    /// (a server's JSON encoder orders an error's two keys as it pleases).
    private static func same(_ a: HTTP.Answer, _ b: HTTP.Answer) -> Bool {
        guard a.status == b.status else { return false }
        guard a.status != 200 else { return a.body == b.body }
        return (try? a.decode(SyncWireError.self)) == (try? b.decode(SyncWireError.self))
    }

    /// An answer in a few words: its status, and a page's cursor and first and last rows.
    private static func summary(_ answer: HTTP.Answer) -> String {
        guard answer.status == 200, let page = try? answer.decode(SyncSnapshotPage.self) else {
            return "HTTP \(answer.status) \(answer.text.prefix(200))"
        }
        let rows = page.rows.map { "\($0.table)/\($0.key)" }
        return "a page at cursor \(page.cursor) of \(rows.count) rows \(rows.first ?? "") … \(rows.last ?? "") of devices \(page.devices)"
    }
}
