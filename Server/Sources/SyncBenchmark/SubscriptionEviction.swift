import Foundation
import SQLiteStore
import SyncServerHarness

/// Ending a large subscription (issue 57, "Measured": "dropping a subscription of 100k rows:
/// eviction ≤ 1 s, no request to the server"). An account's list of `items` items, and a small
/// one; its second device subscribes to both, reads them, and ends the large one while a live
/// list of every item is open on it: the time until the rows have left the store (the commit
/// that deletes them, seen by every reader), until the `unsubscribe` call returns (the sync
/// state's entries of the rows forgotten too, in the next transaction) and until the live
/// list's change set arrives.
/// `unsubscribe` is a call on the store: it has no server to ask. Each round subscribes again
/// and reads the list again first, which is timed too.
struct SubscriptionEviction {
    let items: Int
    let rounds: Int

    /// One round's times.
    struct Round {
        /// Subscribing and reading the large list until the store holds it.
        let read: Duration
        /// From the call to the arrival of the commit that deleted the rows.
        let evicted: Duration
        /// `unsubscribe`, until it returned.
        let call: Duration
        /// From the call to the live list's change set.
        let shown: Duration
    }

    struct Result {
        let items: Int
        /// The owner's first push of the lists, which is setup.
        let push: Duration
        let rounds: [Round]
    }

    /// The small list's items, which stay.
    private static let smallItems = 10

    @MainActor
    func run() async throws -> Result {
        let stores = try BenchmarkStores(migration: SharedListsSchema.migration, tables: SharedListsSchema.tables)
        let owner = try stores.make("owner-1", syncs: true)
        let subscriber = try stores.make("owner-2", syncs: true)
        let deployment = try await BenchmarkDeployment(
            serverCount: 1, migrations: stores.migrations, tables: SharedListsSchema.tables,
            options: SharedListsSchema.sharingOptions + SharedListsSchema.subscriptionOptions)
        let token = try deployment.token(for: "owner")
        try await owner.write { [items] db in
            try db.execute(sql: "INSERT INTO lists(id, title) VALUES ('big', 'Big'), ('small', 'Small')")
            for index in 0..<items {
                try db.execute(sql: "INSERT INTO items(id, list, title) VALUES (?, 'big', ?)", arguments: ["b\(index)", "item \(index)"])
            }
            for index in 0..<Self.smallItems {
                try db.execute(sql: "INSERT INTO items(id, list, title) VALUES (?, 'small', ?)", arguments: ["s\(index)", "item \(index)"])
            }
        }
        var setup = SyncClient(store: owner, server: deployment.servers[0].url, token: token)
        setup.requestTimeout = .seconds(300)
        let push = try await ContinuousClock().measure { try await setup.synchronize() }
        var client = SyncClient(store: subscriber, server: deployment.servers[0].url, token: token)
        client.requestTimeout = .seconds(300)
        try subscriber.sync.subscribe(to: "list", parameter: .text("small"))
        let probe = try ChangeSetProbe(store: subscriber, request: StoreRequest<ListItem>().order(Column("title").ascending))
        var measured: [Round] = []
        for _ in 0..<rounds {
            var large: StoreSync.Subscription?
            // Until the live list shows every item too: a list still behind the read could take
            // the read's last rows and the eviction as one change set, empty.
            let (_, read) = try await probe.measure(timeout: .seconds(600), until: { $0.count == items + Self.smallItems }) {
                large = try subscriber.sync.subscribe(to: "list", parameter: .text("big"), priority: 1)
                try await client.synchronize()
            }
            let held = try await subscriber.read { db in try SharedListsSchema.counts(in: db) }
            guard held.items == items + Self.smallItems, let large else {
                throw BenchmarkFailure(description: "the subscriber holds \(held.items) items, not \(items + Self.smallItems)")
            }
            let commits = try CommitWatch(store: subscriber, until: 1 + Self.smallItems)
            let start = ContinuousClock.now
            let (shown, call) = try await probe.measure(until: { $0.count == Self.smallItems }) {
                try await subscriber.sync.unsubscribe(large.id)
            }
            guard let evicted = try await commits.stamps().last else {
                throw BenchmarkFailure(description: "the subscriber's store never removed the list's rows")
            }
            measured.append(Round(read: read, evicted: evicted.instant - start, call: call, shown: shown))
        }
        withExtendedLifetime((stores, deployment)) {}
        return Result(items: items, push: push, rounds: measured)
    }
}
