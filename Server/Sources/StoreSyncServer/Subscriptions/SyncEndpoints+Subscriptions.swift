import Foundation
import Hummingbird
import SQLiteStoreSync
import SQLiteStoreSyncProtocol

/// The endpoints of a server that declares subscriptions: the subscriptions a pull names, and
/// the pages of a subscription's rows a device reads when it subscribes.
extension SyncEndpoints {
    func registerSubscriptions(on router: Router<some RequestContext>) {
        router.get(RouterPath(SyncWireFormat.subscribedPath)) { request, context in
            await respond(request, context) { account, log in try await subscribedPage(request, account: account, log: log) }
        }
    }

    /// The subscriptions a pull names (``SyncWireFormat/Query/subscriptions``), checked against
    /// the server's; `nil` when it names none.
    ///
    /// - Throws: ``SyncFailure`` `.malformed` for JSON that is not a list of subscriptions, or
    ///   subscriptions the server does not declare (``SubscriptionCoverage/init(_:subsets:)``).
    func subscriptions(in query: Parameters) throws -> SubscriptionCoverage? {
        guard let text = query.get(SyncWireFormat.Query.subscriptions) else { return nil }
        let subscriptions: [SyncSubscription]
        do {
            subscriptions = try JSONDecoder().decode([SyncSubscription].self, from: Data(text.utf8))
        } catch {
            throw SyncFailure(.malformed, "\(SyncWireFormat.Query.subscriptions) is not a JSON list of subscriptions: \(error)")
        }
        guard !subscriptions.isEmpty else { return nil }
        return try SubscriptionCoverage(subscriptions, subsets: configuration.subscriptions)
    }

    private func subscribedPage(_ request: Request, account: Int64, log: ChangeLog) async throws -> Data {
        typealias Query = SyncWireFormat.Query
        let query = request.uri.queryParameters
        try checkFormat(query.get(Query.format, as: Int.self))
        guard let text = query.get(Query.subscription),
            let subscription = try? JSONDecoder().decode(SyncSubscription.self, from: Data(text.utf8))
        else { throw SyncFailure(.malformed, "a subscription page names its subscription, as JSON") }
        guard let resolved = try SubscriptionCoverage([subscription], subsets: configuration.subscriptions).subscriptions.first
        else { throw SyncFailure(.malformed, "a subscription page names its subscription") }
        var share: ShareName?
        if let name = query.get(Query.share) {
            guard let named = ShareName(parsing: name) else {
                throw SyncFailure(.forbidden, "this account is not a member of that share")
            }
            share = named
        }
        let position = query.get(Query.afterTable).map { SyncSnapshotPosition(table: $0, key: query.get(Query.afterKey) ?? "") }
        guard let limit = query.get(Query.limit, as: Int.self) ?? 1_000 as Int?, (1...configuration.maxPullLimit).contains(limit),
            (query.get(Query.afterKey) == nil) == (position == nil)
        else {
            throw SyncFailure(.malformed, "1 ≤ limit ≤ \(configuration.maxPullLimit) is an integer; after_table and after_key go together")
        }
        guard let version = query.get(Query.schema, as: Int64.self) else {
            throw SyncFailure(.malformed, "a subscription page names the device's schema version")
        }
        let schema = try schema(syncing: version)
        var page = try await log.subscribedPage(resolved, share: share, account: account, after: position, limit: limit)
        page.rows = page.rows.map { synced($0, by: schema) }
        return try answerJSON(page)
    }
}
