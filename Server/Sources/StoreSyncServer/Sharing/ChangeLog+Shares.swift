import Foundation
import PostgresNIO
import SQLiteStoreSyncProtocol

/// Shares: who is a member of which root of whose data (`sync_shares`), and the grants and
/// revocations that devices meet in their pulls (`sync_share_events`).
extension ChangeLog {
    /// Makes the account named `memberName` a member of `owner`'s root row `root` with `role`,
    /// changes its role, or revokes it (`role` nil); returns the root's members after. A new
    /// member's devices read the share's rows; a revoked member's remove them.
    ///
    /// It holds the locks of the owner, of the member and of the owner's members, in increasing
    /// order, as a push of the owner's data does: a member's pulls meet the grant or the
    /// revocation in order with the changes.
    ///
    /// - Throws: ``SyncFailure`` `.forbidden` when `root` is not a root row of `owner`'s data or
    ///   no account is named `memberName`; `.malformed` for the owner itself.
    func share(owner: Int64, root: SharedRowRef, memberName: String, role: SyncShareRole?) async throws -> SyncShareMembers {
        return try await transaction { connection in
            guard let member = try await accountID(named: memberName, on: connection) else {
                throw SyncFailure(.forbidden, "no account named \(memberName) can be a member")
            }
            guard member != owner else { throw SyncFailure(.malformed, "an account does not share with itself") }
            try await checkRoot(root, of: owner, on: connection)
            var locks: Set<Int64> = [owner, member]
            let members = try await connection.query("SELECT DISTINCT member FROM sync_shares WHERE owner = \(owner)", logger: logger)
            for try await other in members.decode(Int64.self) { locks.insert(other) }
            for lock in locks.sorted() { try await connection.query("SELECT pg_advisory_xact_lock(\(lock))", logger: logger) }
            let rootName = root.rootName
            let was = try await connection.query(
                "SELECT role FROM sync_shares WHERE owner = \(owner) AND root = \(rootName) AND member = \(member)", logger: logger)
            var wasMember = false
            for try await _ in was.decode(String.self) { wasMember = true }
            if let role {
                try await connection.query(
                    """
                    INSERT INTO sync_shares(owner, root, member, role) VALUES (\(owner), \(rootName), \(member), \(role.rawValue))
                    ON CONFLICT (owner, root, member) DO UPDATE SET role = excluded.role
                    """, logger: logger)
            } else {
                try await connection.query(
                    "DELETE FROM sync_shares WHERE owner = \(owner) AND root = \(rootName) AND member = \(member)", logger: logger)
            }
            if wasMember != (role != nil) {
                let kind = role == nil ? "revoke" : "grant"
                try await connection.query(
                    "INSERT INTO sync_share_events(owner, kind, member, root) VALUES (\(owner), \(kind), \(member), \(rootName))",
                    logger: logger)
                try await announce([member], on: connection)
            }
            return try await self.members(of: root, owner: owner, on: connection)
        }
    }

    /// The members of `owner`'s root row `root`, by account name.
    ///
    /// - Throws: ``SyncFailure`` `.forbidden` when `root` is not a root row of `owner`'s data.
    func members(of root: SharedRowRef, owner: Int64) async throws -> SyncShareMembers {
        try await client.withConnection { connection in
            try await checkRoot(root, of: owner, on: connection)
            return try await members(of: root, owner: owner, on: connection)
        }
    }

    private func members(of root: SharedRowRef, owner: Int64, on connection: PostgresConnection) async throws -> SyncShareMembers {
        let rows = try await connection.query(
            """
            SELECT a.name, s.role FROM sync_shares s JOIN sync_accounts a ON a.id = s.member
            WHERE s.owner = \(owner) AND s.root = \(root.rootName) ORDER BY a.name
            """, logger: logger)
        var members: [SyncShareMember] = []
        for try await (name, role) in rows.decode((String, String).self) {
            if let role = SyncShareRole(rawValue: role) { members.append(SyncShareMember(account: name, role: role)) }
        }
        return SyncShareMembers(share: ShareName(owner: owner, root: root.rootName).text, members: members)
    }

    /// The shares `account` is a member of.
    func memberships(of account: Int64) async throws -> SyncMemberships {
        let rows = try await client.query(
            """
            SELECT s.owner, a.name, s.root, s.role FROM sync_shares s JOIN sync_accounts a ON a.id = s.owner
            WHERE s.member = \(account) ORDER BY s.owner, s.root
            """, logger: logger)
        var shares: [SyncMembership] = []
        for try await (owner, name, root, role) in rows.decode((Int64, String, String, String).self) {
            guard let row = SharedRowRef(rootName: root), let role = SyncShareRole(rawValue: role) else { continue }
            shares.append(
                SyncMembership(
                    share: ShareName(owner: owner, root: root).text, owner: name, table: row.table,
                    key: try SyncWireValue(json: Data(row.key.utf8)), role: role))
        }
        return SyncMemberships(shares: shares)
    }

    /// Up to `limit` of the share's rows after `position`, as `account` holds them, and where
    /// the next page starts: the rows of the root's table first, then the others in (table,
    /// key) order.
    ///
    /// - Throws: ``SyncFailure`` `.forbidden` when `account` is not a member of the share.
    func sharedPage(
        _ share: ShareName, account: Int64, after position: SyncSnapshotPosition?, limit: Int
    ) async throws -> SyncSharedPage {
        try await client.withConnection { connection in
            let roles = try await roles(of: account, on: connection)
            guard roles[share] != nil else { throw SyncFailure(.forbidden, "this account is not a member of share \(share.text)") }
            // The root's table first, then the others by name and key: the root row comes with the
            // first page, so that the rows under it appear with their own page's commit instead of
            // waiting in the sync state for a parent that sorts after them.
            let rootTable = SharedRowRef(rootName: share.root)?.table ?? ""
            let (afterTable, afterKey) = (position?.table ?? "", position?.key ?? "")
            let found = try await connection.query(
                """
                SELECT tbl, pk FROM sync_rows
                WHERE owner = \(share.owner) AND root COLLATE "C" = \(share.root)
                    AND (NOT \(position != nil) OR (tbl <> \(rootTable), tbl COLLATE "C", pk COLLATE "C")
                        > (\(afterTable) <> \(rootTable), \(afterTable) COLLATE "C", \(afterKey) COLLATE "C"))
                ORDER BY tbl <> \(rootTable), tbl COLLATE "C", pk COLLATE "C" LIMIT \(limit + 1)
                """, logger: logger)
            var rows: [OwnedRow] = []
            for try await (table, key) in found.decode((String, String).self) {
                rows.append(OwnedRow(owner: share.owner, row: SharedRowRef(table: table, key: key)))
            }
            let more = rows.count > limit
            if more { rows.removeLast() }
            let states = try await visibleStates(of: rows, account: account, roles: roles, on: connection).filter { !$0.changes.isEmpty }
            let next = more ? rows.last.map { SyncSnapshotPosition(table: $0.row.table, key: $0.row.key) } : nil
            return SyncSharedPage(rows: states, next: next)
        }
    }

    private func accountID(named name: String, on connection: PostgresConnection) async throws -> Int64? {
        let rows = try await connection.query("SELECT id FROM sync_accounts WHERE name = \(name)", logger: logger)
        for try await id in rows.decode(Int64.self) { return id }
        return nil
    }

    /// Refuses a root that is not a root row of `owner`'s data, without saying whether another
    /// account holds it.
    private func checkRoot(_ root: SharedRowRef, of owner: Int64, on connection: PostgresConnection) async throws {
        let rows = try await connection.query(
            "SELECT root FROM sync_rows WHERE owner = \(owner) AND tbl = \(root.table) AND pk = \(root.key)", logger: logger)
        for try await placed in rows.decode(String?.self) where placed == root.rootName { return }
        throw SyncFailure(.forbidden, "no root row \(root.key) of \"\(root.table)\" in this account's data")
    }
}
