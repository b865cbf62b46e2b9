import Foundation
import Hummingbird
import Logging
import NIOCore
import SQLiteStoreCore
import SQLiteStoreSync
import SQLiteStoreSyncProtocol
import ServiceLifecycle

/// The push and pull endpoints: authenticate, validate, then read or write the ``ChangeLog``.
struct SyncEndpoints: Sendable {
    let log: ChangeLog
    let notifier: ChangeNotifier
    let metrics: SyncMetrics
    /// Whether the tables exist yet: until they do, requests are answered 503 at once.
    let readiness: ServerReadiness
    let configuration: SyncServerConfiguration
    /// Computes the page after each snapshot page served.
    let lookahead: SnapshotLookahead
    /// The server's clock, in milliseconds since 1970.
    let now: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }

    func register(on router: Router<some RequestContext>) {
        router.post(RouterPath(SyncWireFormat.pushPath)) { request, context in
            await respond(request, context) { account, log in try await push(request, account: account, log: log) }
        }
        router.get(RouterPath(SyncWireFormat.pullPath)) { request, context in
            await respond(request, context) { account, log in try await pull(request, account: account, log: log) }
        }
        router.get(RouterPath(SyncWireFormat.snapshotPath)) { request, context in
            await respond(request, context) { account, log in try await snapshot(request, account: account, log: log) }
        }
        registerMemberships(sharing: configuration.sharing, on: router)
        if let sharing = configuration.sharing { registerSharing(sharing, on: router) }
        if !configuration.subscriptions.isEmpty { registerSubscriptions(on: router) }
    }

    /// Runs `handler` for the account the request's bearer token grants, with the change log
    /// logging through the request's logger (its lines carry the request id), and turns every
    /// failure into its JSON error response.
    func respond(
        _ request: Request, _ context: some RequestContext, _ handler: (Int64, ChangeLog) async throws -> Data
    ) async -> Response {
        let log = log.logging(to: context.logger)
        do {
            if let problem = readiness.schemaNotCreated { throw SyncFailure(.unavailable, "\(problem); retry later") }
            let account = try await authenticate(request, log: log)
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            let body = try await handler(account, log)
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        } catch let failure as SyncFailure {
            context.logger.info("sync: refused: \(failure.error.code): \(failure.error.message)")
            return failure.response
        } catch {
            context.logger.error("sync: request failed: \(String(reflecting: error))")
            return SyncFailure(.unavailable, "the server could not complete the request; retry later").response
        }
    }

    private func authenticate(_ request: Request, log: ChangeLog) async throws -> Int64 {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
            case let token = String(header.dropFirst("Bearer ".count)), !token.isEmpty
        else { throw SyncFailure(.unauthorized, "a bearer token is required") }
        guard let account = try await log.account(forToken: token) else {
            throw SyncFailure(.unauthorized, "the token is not valid")
        }
        return account
    }

    private func push(_ request: Request, account: Int64, log: ChangeLog) async throws -> Data {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: configuration.maxBodyBytes)
        } catch is NIOTooManyBytesError {
            throw SyncFailure(.tooLarge, "a push is at most \(configuration.maxBodyBytes) bytes")
        }
        let push: SyncPushRequest
        do {
            push = try SyncPushRequest(json: Data(buffer: body))
        } catch {
            throw SyncFailure(.malformed, "the body is not a push: \(error)")
        }
        let schema = try schema(syncing: push.schemaVersion)
        try validate(push, schema: schema)
        if let sharing = configuration.sharing {
            return try await pushShared(push, schema: schema, sharing: sharing, account: account, log: log)
        }
        let stored = try await log.store(push.changes, schemaVersion: push.schemaVersion, account: account)
        metrics.changesStored.increment(by: stored)
        return try answerJSON(SyncPushResponse(stored: stored))
    }

    /// The schema of a device on `version`, when it can sync with the server's; otherwise the
    /// refusal that tells it to upgrade (nothing of its request is stored or read).
    func schema(syncing version: Int64) throws -> SyncSchema {
        if let schema = configuration.schemas.schemaSyncingWithNewest(version) { return schema }
        throw SyncFailure(
            .upgradeRequired, configuration.schemas.upgradeReason(forVersion: version) ?? "schema version \(version) cannot sync")
    }

    private func validate(_ push: SyncPushRequest, schema: SyncSchema) throws {
        try checkFormat(push.format)
        guard push.changes.count <= configuration.maxChangesPerPush else {
            throw SyncFailure(.tooLarge, "a push holds at most \(configuration.maxChangesPerPush) changes")
        }
        let latest = now() + Int64(configuration.maxClockSkew.components.seconds * 1000)
        for change in push.changes {
            try validateNames(change)
            try checkSynced(change, in: schema)
            let milliseconds = change.hlc >> 16
            guard milliseconds <= latest else {
                throw SyncFailure(
                    .clockSkew,
                    "change \(change.device)#\(change.sequence) is dated \(milliseconds - now()) ms ahead of the server's "
                        + "clock, more than the \(configuration.maxClockSkew) tolerated; correct the device's clock (nothing was stored)")
            }
        }
    }

    private func validateNames(_ change: SyncWireChange) throws {
        func valid(_ name: String) -> Bool { !name.isEmpty && name.utf8.count <= 256 }
        guard valid(change.device), valid(change.table), change.sequence > 0 else {
            throw SyncFailure(.malformed, "a change needs a device, a table and a positive sequence (nothing was stored)")
        }
        if let column = change.column, !valid(column) {
            throw SyncFailure(.malformed, "a change sets a column with an empty or overlong name (nothing was stored)")
        }
    }

    /// Refuses a change that no device could apply: its table or column is not the schema's.
    private func checkSynced(_ change: SyncWireChange, in schema: SyncSchema) throws {
        if let reason = schema.refusal(table: change.table, column: change.column) {
            throw SyncFailure(.notSynced, "change \(change.device)#\(change.sequence): \(reason) (nothing was stored)")
        }
    }

    func checkFormat(_ format: Int?) throws {
        guard format == SyncWireFormat.version else {
            throw SyncFailure(
                .malformed,
                "wire format \(format.map(String.init) ?? "none") is not this server's (\(SyncWireFormat.version))")
        }
    }

    private func pull(_ request: Request, account: Int64, log: ChangeLog) async throws -> Data {
        let query = request.uri.queryParameters
        try checkFormat(query.get(SyncWireFormat.Query.format, as: Int.self))
        guard let since = query.get(SyncWireFormat.Query.since, as: Int64.self) ?? 0 as Int64?, since >= 0,
            let limit = query.get(SyncWireFormat.Query.limit, as: Int.self) ?? 1_000 as Int?,
            (1...configuration.maxPullLimit).contains(limit),
            let wait = query.get(SyncWireFormat.Query.wait, as: Int.self) ?? 0 as Int?, wait >= 0
        else {
            throw SyncFailure(.malformed, "since ≥ 0, 1 ≤ limit ≤ \(configuration.maxPullLimit) and wait ≥ 0 are integers")
        }
        // A device that does not say its version (an older client) is taken to be on the server's.
        let version = query.get(SyncWireFormat.Query.schema, as: Int64.self) ?? configuration.schema.version
        let schema = try self.schema(syncing: version)
        let device = query.get(SyncWireFormat.Query.device)
        if let device {
            guard !device.isEmpty, device.utf8.count <= 256 else { throw SyncFailure(.malformed, "a device id is 1 to 256 bytes") }
            try await log.notePull(account: account, device: device, cursor: since)
        }
        let coverage = try subscriptions(in: query)
        if configuration.sharing != nil || coverage != nil {
            return try await pullShared(
                since: since, limit: limit, wait: wait, device: device, schema: schema, coverage: coverage, account: account, log: log)
        }
        let generation = await notifier.generation(of: account)
        var stored = try await log.changes(account: account, after: since, limit: limit)
        if stored.changes.isEmpty && wait > 0 {
            await waitForChanges(account: account, after: generation, seconds: wait)
            stored = try await log.changes(account: account, after: since, limit: limit)
        }
        let batch = PulledBatch(stored, since: since, for: schema, schemas: configuration.schemas)
        let changes = batch.changes.map(\.change)
        // The puller's own changes are left out; the highest of them tells a copy of its database that it is one.
        let ownHighest = changes.lazy.filter { $0.device == device }.map(\.sequence).max()
        let response = SyncPullResponse(
            schemaVersion: batch.schemaVersion, changes: changes.filter { $0.device != device }, cursor: batch.cursor,
            more: batch.more, deviceSequence: ownHighest)
        return try answerJSON(response)
    }

    /// Waits up to `seconds` (at most the configured longest wait) for a notification of the
    /// account after `generation`: a long poll. A server told to stop answers its long polls at
    /// once instead of holding its shutdown for as long as they wait; their devices poll again,
    /// another server then.
    func waitForChanges(account: Int64, after generation: UInt64, seconds: Int) async {
        let timeout = min(.seconds(seconds), configuration.maxWait)
        metrics.connectedDevices.increment()
        await cancelWhenGracefulShutdown { [notifier] in
            await notifier.wait(account: account, after: generation, timeout: timeout)
        }
        metrics.connectedDevices.decrement()
    }

    /// One page of the account's current state at the snapshot's cursor (the account's latest
    /// sequence on the first page, the one the device names on the next ones).
    private func snapshot(_ request: Request, account: Int64, log: ChangeLog) async throws -> Data {
        typealias Query = SyncWireFormat.Query
        let query = request.uri.queryParameters
        try checkFormat(query.get(Query.format, as: Int.self))
        guard let version = query.get(Query.schema, as: Int64.self) else {
            throw SyncFailure(.malformed, "a snapshot names the device's schema version")
        }
        _ = try schema(syncing: version)
        let position = query.get(Query.afterTable).map { SyncSnapshotPosition(table: $0, key: query.get(Query.afterKey) ?? "") }
        guard let limit = query.get(Query.limit, as: Int.self) ?? 1_000 as Int?, (1...configuration.maxPullLimit).contains(limit),
            (query.get(Query.afterKey) == nil) == (position == nil)
        else {
            throw SyncFailure(.malformed, "1 ≤ limit ≤ \(configuration.maxPullLimit) is an integer; after_table and after_key go together")
        }
        let latest = try await log.latestSequence(account: account)
        let cursor = query.get(Query.upTo, as: Int64.self) ?? latest
        guard (0...latest).contains(cursor) else {
            throw SyncFailure(.malformed, "up_to \(cursor) is not a snapshot cursor of this account (0...\(latest))")
        }
        return try await lookahead.page(.init(account: account, cursor: cursor, position: position, limit: limit, schemaVersion: version))
            .json
    }
}
