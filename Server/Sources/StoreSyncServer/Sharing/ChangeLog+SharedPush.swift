import Foundation
import Logging
import PostgresNIO
import SQLiteStoreSync
import SQLiteStoreSyncProtocol

/// Pushes when accounts share data (Docs/SyncServerSchema.md, "Sharing").
extension ChangeLog {
    /// What a push stored and refused.
    struct SharedPushOutcome {
        let stored: Int
        let refused: [SharedPushPlan.Refused]
        /// The rows stored in other accounts' data, each with its share.
        let shared: [SharedRowRef: ShareName]
    }

    /// Stores `push` on a server with sharing: each change in the data of the account it
    /// belongs to, when the pushing `account` may write it (``SharedPushPlan``); the others are
    /// refused, recorded in `sync_refusals` and stored nowhere else. Rows the push adds or
    /// moves are placed (`sync_rows`), and each row whose root changed is an event for the
    /// members of its old and new shares.
    ///
    /// The transaction holds the advisory lock of the pushing account, of every account whose
    /// data it writes, and of every member of their shares, taken in increasing order: any two
    /// writes that one account pulls are serialized by that account's lock, so that its pulls
    /// see the server's sequence numbers committed in order and a cursor never skips one.
    func storeShared(_ push: SyncPushRequest, account: Int64, sharing: SyncSharing) async throws -> SharedPushOutcome {
        let claims = try SharedPushPlan.claims(of: push, sharing: sharing)
        return try await transaction { connection in
            // The locks the push may need, from its rows' owners, then the plan under them; a
            // share granted meanwhile may make it need more, then taken and planned again.
            var locked = try await expectedLocks(of: push, account: account, claims: claims, sharing: sharing, on: connection)
            for lock in locked.sorted() { try await connection.query("SELECT pg_advisory_xact_lock(\(lock))", logger: logger) }
            var (prior, plan) = try await answer(push, account: account, claims: claims, sharing: sharing, on: connection)
            while true {
                let needed = try await locks(for: plan, account: account, on: connection).subtracting(locked)
                if needed.isEmpty { break }
                for lock in needed.sorted() { try await connection.query("SELECT pg_advisory_xact_lock(\(lock))", logger: logger) }
                locked.formUnion(needed)
                (prior, plan) = try await answer(push, account: account, claims: claims, sharing: sharing, on: connection)
            }
            var inserted = 0
            for (owner, ownerChanges) in plan.stored.sorted(by: { $0.key < $1.key }) {
                let pushed = try PushedChanges(ownerChanges)
                let count = try await pushed.insertNew(
                    account: owner, schemaVersion: push.schemaVersion, on: connection, logger: logger)
                if count < pushed.count { try await checkNotForked(pushed, owner: owner, on: connection) }
                inserted += count
            }
            try await record(plan.refused, account: account, on: connection)
            for (owner, placements) in plan.placements.sorted(by: { $0.key < $1.key }) {
                try await place(placements, owner: owner, roots: sharing.roots, on: connection)
            }
            try await announce(locked, on: connection)
            return SharedPushOutcome(stored: inserted, refused: prior.refused + plan.refused, shared: plan.sharedRows)
        }
    }

    /// Refuses the whole push with ``SyncWireError/Code/forkedDevice`` when one of `pushed` is
    /// stored in `owner`'s data with other contents.
    private func checkNotForked(_ pushed: PushedChanges, owner: Int64, on connection: PostgresConnection) async throws {
        guard let reused = try await pushed.firstReusedID(account: owner, on: connection, logger: logger) else { return }
        throw SyncFailure(
            .forkedDevice,
            "change \(reused.sequence) of device \(reused.device) is stored with other contents: this database is a copy of another "
                + "device's, and both wrote under one device id")
    }

    /// What the server answered before to changes of `push` (a push retried after its answer
    /// was lost), and the plan of the others. A change stored before is stored (checked to hold
    /// the same contents) whatever the account's rights now; a change refused before is refused
    /// again with the same reason.
    private func answer(
        _ push: SyncPushRequest, account: Int64, claims: [SharedRowRef: ShareName], sharing: SyncSharing,
        on connection: PostgresConnection
    ) async throws -> (prior: PriorAnswers, plan: SharedPushPlan) {
        let prior = try await priorAnswers(to: push.changes, on: connection)
        for (owner, changes) in prior.stored.sorted(by: { $0.key < $1.key }) {
            try await checkNotForked(try PushedChanges(changes), owner: owner, on: connection)
        }
        let answered = Set(prior.stored.values.joined().map { "\($0.device)#\($0.sequence)" })
            .union(prior.refused.map { "\($0.change.device)#\($0.change.sequence)" })
        let fresh = push.changes.filter { !answered.contains("\($0.device)#\($0.sequence)") }
        let rows = try SharedPushPlan.rows(of: fresh, sharing: sharing)
        let plan = try await plan(
            fresh, account: account, rows: rows, claims: claims, refusedBefore: prior.refused, sharing: sharing, on: connection)
        return (prior, plan)
    }

    /// Changes of a push that the server answered before.
    struct PriorAnswers {
        /// Stored, by the account whose data holds them.
        var stored: [Int64: [SyncWireChange]] = [:]
        var refused: [SharedPushPlan.Refused] = []
    }

    private func priorAnswers(to changes: [SyncWireChange], on connection: PostgresConnection) async throws -> PriorAnswers {
        guard !changes.isEmpty else { return PriorAnswers() }
        let devices = Array(Set(changes.map(\.device)))
        let (changeDevices, sequences) = (changes.map(\.device), changes.map(\.sequence))
        var owners: [Int64] = []
        let known = try await connection.query(
            "SELECT DISTINCT account FROM sync_devices WHERE device = ANY(\(devices)::text[])", logger: logger)
        for try await owner in known.decode(Int64.self) { owners.append(owner) }
        var byID: [String: SyncWireChange] = [:]
        for change in changes { byID["\(change.device)#\(change.sequence)"] = change }
        var prior = PriorAnswers()
        if !owners.isEmpty {
            let stored = try await connection.query(
                """
                SELECT c.account, c.device, c.device_seq FROM unnest(\(changeDevices)::text[], \(sequences)::bigint[]) AS u(d, s)
                JOIN sync_changes c ON c.account = ANY(\(owners)::bigint[]) AND c.device = u.d AND c.device_seq = u.s
                """, logger: logger)
            for try await (owner, device, sequence) in stored.decode((Int64, String, Int64).self) {
                if let change = byID["\(device)#\(sequence)"] { prior.stored[owner, default: []].append(change) }
            }
        }
        let refused = try await connection.query(
            """
            SELECT r.device, r.device_seq, r.owner, r.tbl, r.pk, r.reason, r.message
            FROM unnest(\(changeDevices)::text[], \(sequences)::bigint[]) AS u(d, s)
            JOIN sync_refusals r ON r.device = u.d AND r.device_seq = u.s
            """, logger: logger)
        for try await (device, sequence, owner, table, key, reason, message) in refused.decode(
            (String, Int64, Int64, String, String, String, String).self)
        {
            guard let change = byID["\(device)#\(sequence)"], let reason = SyncRefusal.Reason(rawValue: reason) else { continue }
            prior.refused.append(
                SharedPushPlan.Refused(
                    change: change, row: SharedRowRef(table: table, key: key), owner: owner, reason: reason, message: message))
        }
        return prior
    }

    /// The plan of a push from the places and roles as the transaction reads them now.
    private func plan(
        _ changes: [SyncWireChange], account: Int64, rows: Set<SharedRowRef>, claims: [SharedRowRef: ShareName],
        refusedBefore: [SharedPushPlan.Refused], sharing: SyncSharing, on connection: PostgresConnection
    ) async throws -> SharedPushPlan {
        let roles = try await roles(of: account, on: connection)
        let owners = [account] + Set(roles.keys.map(\.owner)).union(claims.values.map(\.owner)).subtracting([account]).sorted()
        let places = try await places(of: rows, owners: owners, on: connection)
        return try SharedPushPlan(
            changes, pusher: account, sharing: sharing, places: places, roles: roles, claims: claims, refusedBefore: refusedBefore)
    }

    /// The role of `account` in each share it is a member of.
    func roles(of account: Int64, on connection: PostgresConnection) async throws -> [ShareName: SyncShareRole] {
        let rows = try await connection.query("SELECT owner, root, role FROM sync_shares WHERE member = \(account)", logger: logger)
        var roles: [ShareName: SyncShareRole] = [:]
        for try await (owner, root, role) in rows.decode((Int64, String, String).self) {
            roles[ShareName(owner: owner, root: root)] = SyncShareRole(rawValue: role)
        }
        return roles
    }

    /// The places of `rows` in the data of `owners`, and of all their parents up their paths
    /// (a row met twice, in a loop, once).
    func places(
        of rows: Set<SharedRowRef>, owners: [Int64], on connection: PostgresConnection
    ) async throws -> [SharedRowRef: [Int64: RowPlace]] {
        guard !rows.isEmpty else { return [:] }
        let (tables, keys) = (rows.map(\.table), rows.map(\.key))
        let found = try await connection.query(
            """
            WITH RECURSIVE found AS (
                SELECT r.owner, r.tbl, r.pk, r.parent_tbl, r.parent_pk, r.links
                FROM unnest(\(tables)::text[], \(keys)::text[]) AS u(t, k)
                JOIN sync_rows r ON r.tbl = u.t AND r.pk = u.k AND r.owner = ANY(\(owners)::bigint[])
                UNION
                SELECT p.owner, p.tbl, p.pk, p.parent_tbl, p.parent_pk, p.links
                FROM found f JOIN sync_rows p ON p.owner = f.owner AND p.tbl = f.parent_tbl AND p.pk = f.parent_pk
            )
            SELECT owner, tbl, pk, parent_tbl, parent_pk, coalesce(links, '[]') FROM found
            """, logger: logger)
        var places: [SharedRowRef: [Int64: RowPlace]] = [:]
        let decoder = JSONDecoder()
        for try await (owner, table, key, parentTable, parentKey, linksJSON) in found.decode(
            (Int64, String, String, String?, String?, String).self)
        {
            let links = (try? decoder.decode([RowLink?].self, from: Data(linksJSON.utf8))) ?? []
            let parent = parentTable.flatMap { table in parentKey.map { SharedRowRef(table: table, key: $0) } }
            places[SharedRowRef(table: table, key: key), default: [:]][owner] = RowPlace(owner: owner, links: links, parent: parent)
        }
        return places
    }

    /// The locks a push will need, read before any is taken from what the rows it names are
    /// now: the pusher's, those of the accounts that hold its rows and the parents it names (or
    /// will: the pusher's own), and those of their members. A plan made under them needs no
    /// other unless shares or rows changed in between (``locks(for:account:on:)``), so that a
    /// push is planned once, not before and again under its locks.
    private func expectedLocks(
        of push: SyncPushRequest, account: Int64, claims: [SharedRowRef: ShareName], sharing: SyncSharing,
        on connection: PostgresConnection
    ) async throws -> Set<Int64> {
        let rows = try SharedPushPlan.rows(of: push.changes, sharing: sharing)
        guard !rows.isEmpty else { return [account] }
        let roles = try await roles(of: account, on: connection)
        let candidates = Set(roles.keys.map(\.owner)).union(claims.values.map(\.owner)).subtracting([account]).sorted()
        var owners: Set<Int64> = [account]
        if !candidates.isEmpty {
            let found = try await connection.query(
                """
                SELECT DISTINCT r.owner FROM unnest(\(rows.map(\.table))::text[], \(rows.map(\.key))::text[]) AS u(t, k)
                JOIN sync_rows r ON r.tbl = u.t AND r.pk = u.k AND r.owner = ANY(\(candidates)::bigint[])
                """, logger: logger)
            for try await owner in found.decode(Int64.self) { owners.insert(owner) }
        }
        let members = try await connection.query(
            "SELECT DISTINCT member FROM sync_shares WHERE owner = ANY(\(Array(owners))::bigint[])", logger: logger)
        var locks = owners
        for try await member in members.decode(Int64.self) { locks.insert(member) }
        return locks
    }

    /// The accounts whose locks a push of `plan` takes: the pusher's, those of the accounts
    /// whose shareable rows it writes, and those of their shares' members.
    private func locks(for plan: SharedPushPlan, account: Int64, on connection: PostgresConnection) async throws -> Set<Int64> {
        let owners = Array(plan.sharedOwners)
        var locks = Set(owners).union([account])
        guard !owners.isEmpty else { return locks }
        let rows = try await connection.query(
            "SELECT DISTINCT member FROM sync_shares WHERE owner = ANY(\(owners)::bigint[])", logger: logger)
        for try await member in rows.decode(Int64.self) { locks.insert(member) }
        return locks
    }

    /// Records refused changes, so that a retried push is answered the same.
    private func record(_ refused: [SharedPushPlan.Refused], account: Int64, on connection: PostgresConnection) async throws {
        guard !refused.isEmpty else { return }
        let devices = refused.map(\.change.device)
        let sequences = refused.map(\.change.sequence)
        let tables = refused.map(\.row.table)
        let keys = refused.map(\.row.key)
        let owners = refused.map(\.owner)
        let reasons = refused.map(\.reason.rawValue)
        let messages = refused.map(\.message)
        try await connection.query(
            """
            INSERT INTO sync_refusals(device, device_seq, account, owner, tbl, pk, reason, message)
            SELECT d, s, \(account), o, t, k, r, m
            FROM unnest(\(devices)::text[], \(sequences)::bigint[], \(owners)::bigint[], \(tables)::text[], \(keys)::text[],
                \(reasons)::text[], \(messages)::text[]) AS u(d, s, o, t, k, r, m)
            ON CONFLICT (device, device_seq) DO NOTHING
            """, logger: logger)
    }

    /// Places new and moved rows of `owner`'s data under their parents, then gives each of
    /// them and every row under them the root its parents now lead to (`roots`: the root
    /// tables), and records an event for each row that was placed before and whose root changed.
    ///
    /// A row's root is found by walking its parents up to a root row that exists; the walk
    /// stops at a parent the server does not hold, and at a row met twice (a loop), with no root.
    /// The roots are joined to the rows, not looked up a row at a time: the lookup made a push of
    /// 1,700 new rows take 3.5 s in PostgreSQL, growing with the square of the push.
    private func place(
        _ placements: [SharedRowRef: SharedPushPlan.Placement], owner: Int64, roots: Set<String>, on connection: PostgresConnection
    ) async throws {
        let rows = Array(placements.keys)
        let tables = rows.map(\.table)
        let keys = rows.map(\.key)
        let parentTables = rows.map { placements[$0]?.parent?.table ?? "" }
        let parentKeys = rows.map { placements[$0]?.parent?.key ?? "" }
        let isNew = rows.map { placements[$0]?.isNew ?? false }
        let links = try rows.map { String(decoding: try JSONEncoder().encode(placements[$0]?.links ?? []), as: UTF8.self) }
        let rootTables = roots.sorted()
        try await connection.query(
            """
            INSERT INTO sync_rows(owner, tbl, pk, parent_tbl, parent_pk, links)
            SELECT \(owner), t, k, NULLIF(pt, ''), CASE WHEN pt = '' THEN NULL ELSE pk END, l
            FROM unnest(\(tables)::text[], \(keys)::text[], \(parentTables)::text[], \(parentKeys)::text[], \(links)::text[])
                AS u(t, k, pt, pk, l)
            ON CONFLICT (owner, tbl, pk) DO UPDATE
            SET parent_tbl = excluded.parent_tbl, parent_pk = excluded.parent_pk, links = excluded.links
            """, logger: logger)
        // The rows this statement walks join each other as common table expressions, whose sizes
        // PostgreSQL guesses from their first term: it joined them in nested loops, comparing every
        // pair, so that placing a new list of 10,000 items took 17 s (0.3 s with hash joins).
        try await connection.query("SET LOCAL enable_nestloop = off", logger: logger)
        try await connection.query(
            """
            WITH RECURSIVE affected(tbl, pk) AS (
                SELECT t, k FROM unnest(\(tables)::text[], \(keys)::text[]) AS u(t, k)
                UNION
                SELECT r.tbl, r.pk FROM sync_rows r JOIN affected a ON r.owner = \(owner) AND r.parent_tbl = a.tbl AND r.parent_pk = a.pk
            ), walk(start_tbl, start_pk, tbl, pk) AS (
                SELECT tbl, pk, tbl, pk FROM affected
                UNION
                SELECT w.start_tbl, w.start_pk, r.parent_tbl, r.parent_pk
                FROM walk w JOIN sync_rows r ON r.owner = \(owner) AND r.tbl = w.tbl AND r.pk = w.pk
                WHERE r.parent_tbl IS NOT NULL
            ), roots AS (
                -- Each affected row's root: the root row its walk reached, if the owner's data holds it.
                SELECT DISTINCT ON (w.start_tbl, w.start_pk) w.start_tbl, w.start_pk, w.tbl || ':' || w.pk AS root
                FROM walk w JOIN sync_rows x ON x.owner = \(owner) AND x.tbl = w.tbl AND x.pk = w.pk
                WHERE w.tbl = ANY(\(rootTables)::text[])
            ), placed AS (
                SELECT a.tbl, a.pk, o.root AS old_root, r.root AS new_root
                FROM affected a
                JOIN sync_rows o ON o.owner = \(owner) AND o.tbl = a.tbl AND o.pk = a.pk
                LEFT JOIN roots r ON r.start_tbl = a.tbl AND r.start_pk = a.pk
            ), changed AS (
                UPDATE sync_rows r SET root = placed.new_root FROM placed
                WHERE r.owner = \(owner) AND r.tbl = placed.tbl AND r.pk = placed.pk AND r.root IS DISTINCT FROM placed.new_root
                RETURNING r.tbl, r.pk, placed.old_root, placed.new_root
            ), fresh AS (
                SELECT t, k FROM unnest(\(tables)::text[], \(keys)::text[], \(isNew)::bool[]) AS n(t, k, is_new) WHERE is_new
            )
            INSERT INTO sync_share_events(owner, kind, tbl, pk, old_root, new_root)
            SELECT \(owner), 'row', c.tbl, c.pk, c.old_root, c.new_root
            FROM changed c LEFT JOIN fresh f ON f.t = c.tbl AND f.k = c.pk
            WHERE f.t IS NULL
            ORDER BY c.tbl COLLATE "C", c.pk COLLATE "C"
            """, logger: logger)
        try await connection.query("SET LOCAL enable_nestloop = DEFAULT", logger: logger)
    }

    /// Wakes the long polls of `accounts` when the transaction commits.
    func announce(_ accounts: Set<Int64>, on connection: PostgresConnection) async throws {
        let texts = accounts.sorted().map(String.init)
        try await connection.query(
            "SELECT pg_notify(\(Self.channel), a) FROM unnest(\(texts)::text[]) AS a", logger: logger)
    }
}
