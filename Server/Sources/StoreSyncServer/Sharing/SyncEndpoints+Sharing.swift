import Foundation
import Hummingbird
import SQLiteStoreSync
import SQLiteStoreSyncProtocol

/// The endpoints of a server with sharing: pushes authorized per change, pulls of the
/// account's data and of its shares, and the shares themselves.
extension SyncEndpoints {
    func registerSharing(_ sharing: SyncSharing, on router: Router<some RequestContext>) {
        router.post(RouterPath(SyncWireFormat.sharesPath)) { request, context in
            await respond(request, context) { account, log in try await share(request, sharing: sharing, account: account, log: log) }
        }
        router.get(RouterPath(SyncWireFormat.sharesPath)) { request, context in
            await respond(request, context) { account, log in try await members(request, sharing: sharing, account: account, log: log) }
        }
        router.get(RouterPath(SyncWireFormat.sharedPath)) { request, context in
            await respond(request, context) { account, log in try await sharedPage(request, account: account, log: log) }
        }
    }

    /// The shares `account` is a member of, on any server: none where sharing is off. A device
    /// removes the shares it holds that the answer leaves out, so the route is always there,
    /// and a 404 means a wrong address, never "no shares".
    func registerMemberships(sharing: SyncSharing?, on router: Router<some RequestContext>) {
        router.get(RouterPath(SyncWireFormat.membershipsPath)) { request, context in
            await respond(request, context) { account, log in
                try checkFormat(request.uri.queryParameters.get(SyncWireFormat.Query.format, as: Int.self))
                guard sharing != nil else { return try answerJSON(SyncMemberships(shares: [])) }
                return try answerJSON(try await log.memberships(of: account))
            }
        }
    }

    /// Stores a push change by change, each where it belongs or refused, and answers the
    /// refusals with the refused rows as the device may now hold them.
    func pushShared(
        _ push: SyncPushRequest, schema: SyncSchema, sharing: SyncSharing, account: Int64, log: ChangeLog
    ) async throws -> Data {
        let outcome = try await log.storeShared(push, account: account, sharing: sharing)
        metrics.changesStored.increment(by: outcome.stored)
        let refusals = outcome.refused.map {
            SyncRefusal(
                device: $0.change.device, sequence: $0.change.sequence, table: $0.change.table, key: $0.change.key,
                column: $0.change.column, reason: $0.reason,
                message: $0.message)
        }
        var rows: [ChangeLog.OwnedRow] = []
        for refused in outcome.refused {
            let row = ChangeLog.OwnedRow(owner: refused.owner, row: refused.row)
            if !rows.contains(row) { rows.append(row) }
        }
        let states = try await log.visibleStates(of: rows, account: account)
        let shared = try outcome.shared.sorted { ($0.key.table, $0.key.key) < ($1.key.table, $1.key.key) }.map { row, share in
            SyncSharedRow(table: row.table, key: try SyncWireValue(json: Data(row.key.utf8)), share: share.text)
        }
        return try answerJSON(
            SyncPushResponse(stored: outcome.stored, refused: refusals, rows: states.map { synced($0, by: schema) }, shared: shared))
    }

    /// A pull of the account's data and of its shares: changes, moved rows, and at most one
    /// grant or revocation, last. With `coverage` (a device with subscriptions), rows instead of
    /// changes: each row the batch touched, as the device may hold it now.
    func pullShared(
        since: Int64, limit: Int, wait: Int, device: String?, schema: SyncSchema, coverage: SubscriptionCoverage?, account: Int64,
        log: ChangeLog
    ) async throws -> Data {
        let generation = await notifier.generation(of: account)
        var pulled = try await log.sharedChanges(account: account, after: since, limit: limit, coverage: coverage)
        if pulled.cursor == since && wait > 0 {
            await waitForChanges(account: account, after: generation, seconds: wait)
            pulled = try await log.sharedChanges(account: account, after: since, limit: limit, coverage: coverage)
        }
        let batch = PulledBatch(
            (pulled.changes.map(\.stored), more: pulled.more), since: since, for: schema, schemas: configuration.schemas)
        // A batch of an older version's changes ends before the pulled ones: so does the cursor.
        // The moved rows and the membership are the current state, which a device may take early.
        let endsEarly = pulled.changes.last.map { batch.cursor < $0.stored.serverSequence } ?? false
        var shares: [Int64: ShareName] = [:]
        for (stored, share) in pulled.changes { if let share { shares[stored.serverSequence] = share } }
        let kept = batch.changes.filter { $0.change.device != device }
        let ownHighest = batch.changes.lazy.filter { $0.change.device == device }.map(\.change.sequence).max()
        var response = SyncPullResponse(
            schemaVersion: batch.schemaVersion, changes: kept.map(\.change), cursor: endsEarly ? batch.cursor : pulled.cursor,
            more: pulled.more || endsEarly, deviceSequence: ownHighest)
        // Every change's row is tagged, the device's own too: a row it added to a share is the share's.
        var tagged: Set<SyncSharedRow> = []
        for change in batch.changes {
            guard let share = shares[change.serverSequence] else { continue }
            let row = SyncSharedRow(table: change.change.table, key: change.change.key, share: share.text)
            if tagged.insert(row).inserted { response.shared.append(row) }
        }
        response.rows = pulled.rows.map { synced($0, by: schema) }
        if coverage != nil {
            // The rows say it all, the device's own included.
            response.changes = []
            response.shared = []
        }
        if let (share, granted) = pulled.membership {
            if granted { response.granted = [share.text] } else { response.revoked = [share.text] }
        }
        return try answerJSON(response)
    }

    /// `state` with only the changes that `schema` syncs.
    func synced(_ state: SyncRowState, by schema: SyncSchema) -> SyncRowState {
        var state = state
        state.changes.removeAll { schema.refusal(table: $0.table, column: $0.column) != nil }
        return state
    }

    private func share(_ request: Request, sharing: SyncSharing, account: Int64, log: ChangeLog) async throws -> Data {
        let body = try await request.body.collect(upTo: 64 << 10)
        let asked: SyncShareRequest
        do {
            asked = try JSONDecoder().decode(SyncShareRequest.self, from: Data(buffer: body))
        } catch {
            throw SyncFailure(.malformed, "the body is not a share request: \(error)")
        }
        try checkFormat(asked.format)
        let root = try rootRow(table: asked.table, key: asked.key, sharing: sharing)
        guard !asked.member.isEmpty, asked.member.utf8.count <= 256 else {
            throw SyncFailure(.malformed, "an account name is 1 to 256 bytes")
        }
        return try answerJSON(try await log.share(owner: account, root: root, memberName: asked.member, role: asked.role))
    }

    private func members(_ request: Request, sharing: SyncSharing, account: Int64, log: ChangeLog) async throws -> Data {
        let query = request.uri.queryParameters
        try checkFormat(query.get(SyncWireFormat.Query.format, as: Int.self))
        guard let table = query.get(SyncWireFormat.Query.table), let keyJSON = query.get(SyncWireFormat.Query.key),
            let key = try? SyncWireValue(json: Data(keyJSON.utf8))
        else { throw SyncFailure(.malformed, "the members of a root name its table and its key (as a value's JSON)") }
        return try answerJSON(try await log.members(of: try rootRow(table: table, key: key, sharing: sharing), owner: account))
    }

    /// The root row a request names, in a root table of `sharing`.
    private func rootRow(table: String, key: SyncWireValue, sharing: SyncSharing) throws -> SharedRowRef {
        let name = sharing.canonicalName(of: table)
        guard sharing.roots.contains(name) else {
            throw SyncFailure(.malformed, "\"\(table)\" is not a root table (roots: \(sharing.roots.sorted().joined(separator: ", ")))")
        }
        return SharedRowRef(table: name, key: try StoredJSON.text(of: key, encoder: JSONEncoder()))
    }

    private func sharedPage(_ request: Request, account: Int64, log: ChangeLog) async throws -> Data {
        typealias Query = SyncWireFormat.Query
        let query = request.uri.queryParameters
        try checkFormat(query.get(Query.format, as: Int.self))
        guard let share = query.get(Query.share).flatMap(ShareName.init(parsing:)) else {
            throw SyncFailure(.forbidden, "this account is not a member of that share")
        }
        let position = query.get(Query.afterTable).map { SyncSnapshotPosition(table: $0, key: query.get(Query.afterKey) ?? "") }
        guard let limit = query.get(Query.limit, as: Int.self) ?? 1_000 as Int?, (1...configuration.maxPullLimit).contains(limit),
            (query.get(Query.afterKey) == nil) == (position == nil)
        else {
            throw SyncFailure(.malformed, "1 ≤ limit ≤ \(configuration.maxPullLimit) is an integer; after_table and after_key go together")
        }
        return try answerJSON(try await log.sharedPage(share, account: account, after: position, limit: limit))
    }
}
