import Foundation
import SQLiteStoreCore
import SQLiteStoreSyncProtocol

/// Sharing rows with other accounts through a server that shares (see "Sharing" in
/// <doc:SyncBetweenDevices>).
extension SyncClient {
    /// Shares the root row `key` of the root table `table` with the account named `account` as
    /// `role`, or changes its role; returns the root's members. The member's devices receive
    /// the root and every row under it, live.
    ///
    /// The row must be a root row of this account's data that the server holds (pushed).
    ///
    /// - Throws: ``SyncServerError`` with reason `.forbidden` when it is not, or no account has
    ///   that name; `.malformed` when `table` is not one of the server's root tables, or for
    ///   this account itself; `.unexpectedResponse` (HTTP 404) from a server without sharing.
    @discardableResult
    public func share(table: String, key: DatabaseValue, with account: String, as role: SyncShareRole) async throws
        -> SyncShareMembers
    {
        try await endpoints.share(SyncShareRequest(table: table, key: key.wireValue, member: account, role: role))
    }

    /// Revokes the membership of the account named `account` in the root row `key` of `table`;
    /// returns the root's members. Its devices remove the root's rows, as remote deletes that
    /// are not sent back, the next time they sync.
    ///
    /// - Throws: as ``share(table:key:with:as:)``.
    @discardableResult
    public func revoke(table: String, key: DatabaseValue, from account: String) async throws -> SyncShareMembers {
        try await endpoints.share(SyncShareRequest(table: table, key: key.wireValue, member: account, role: nil))
    }

    /// The members of this account's root row `key` of `table`.
    ///
    /// - Throws: ``SyncServerError`` with reason `.forbidden` when it is not a root row of this
    ///   account's data on the server.
    public func members(table: String, key: DatabaseValue) async throws -> SyncShareMembers {
        try await endpoints.members(table: table, key: key.wireValue)
    }

    /// The shares this account is a member of: other accounts' roots whose rows it receives
    /// (none from a server without sharing).
    ///
    /// - Throws: ``SyncServerError``, for a 404 too: every server answers this request, and a
    ///   device that took a 404 for "none" would remove the shares it holds.
    public func memberships() async throws -> [SyncMembership] {
        try await endpoints.memberships()
    }

    // MARK: Applying sharing's answers

    /// Acknowledges the outbox up to `last`, records the refusals of `answer`, gives the
    /// refused rows the server's state, and records the share of each row the push added to
    /// one, in one transaction.
    func acknowledge(upTo last: SyncChange.ID, refusing answer: SyncPushResponse) async throws {
        try await applying { db in
            guard let coordinator = db.syncCoordinator, let device = try SyncStorage.deviceID(in: db) else {
                throw StoreError.misuse("sync is not configured")
            }
            guard device == last.device else { throw StoreError.misuse("sync: change \(last) was not made on this device") }
            try db.execute(sql: "DELETE FROM store_sync_outbox WHERE sequence <= ?", arguments: [last.sequence])
            try SyncStorage.recordRefusals(answer.refused, in: db)
            let sharing = try coordinator.sharing(in: db)
            try sharing.replace(answer.rows, device: device)
            try sharing.tag(answer.shared)
        }
    }

    /// Removes the rows of the shares the store holds rows of and the account is no longer a
    /// member of (`joined`): for a store that reads a snapshot again (a forgotten device, a new
    /// device id, a migration), whose cursor passed their revocations.
    func removeLeftShares(joined: [String], coordinator: SyncCoordinator, in db: Database) throws {
        let left = try SyncStorage.sharesHeld(in: db).subtracting(joined)
        guard !left.isEmpty else { return }
        let sharing = try coordinator.sharing(in: db)
        for share in left.sorted() { try sharing.remove(share: share) }
    }

    /// Applies what a pull says of shares and subscriptions, after its changes: the shares of
    /// the rows they touch, the rows that moved into or out of the account's shares or its
    /// subscriptions, a share left (its rows removed) or joined (its rows to read,
    /// ``readJoinedShares()``, or the subscriptions read again).
    func applySharing(of pulled: SyncPullResponse, device: String, coordinator: SyncCoordinator, in db: Database) throws {
        guard !pulled.shared.isEmpty || !pulled.rows.isEmpty || !pulled.revoked.isEmpty || !pulled.granted.isEmpty else { return }
        let sharing = try coordinator.sharing(in: db)
        try sharing.tag(pulled.shared)
        try sharing.place(pulled.rows, device: device)
        for share in pulled.revoked {
            try sharing.remove(share: share)
            try SyncStorage.setShareReading(share, server: server.absoluteString, reached: nil, in: db)
        }
        guard !pulled.granted.isEmpty else { return }
        if try SyncStorage.subscriptions(in: db).isEmpty {
            for share in pulled.granted { try SyncStorage.queueShareReading(share, server: server.absoluteString, in: db) }
        } else {
            // The subscriptions may cover rows of the share joined: read again, they bring them.
            try SyncStorage.readSubscriptionsAgain(sweeping: false, in: db)
        }
    }

    /// Reads the rows of the shares joined and not read yet, a page per transaction (the next
    /// one fetched meanwhile), each page noting how far the reading went; once a share is read whole, the rows held of it that it
    /// did not bring again are removed (they left it). A share the account has left meanwhile is
    /// removed.
    func readJoinedShares() async throws {
        let joined = try await store.read { [server] db in try SyncStorage.sharesBeingRead(from: server.absoluteString, in: db) }
        let (endpoints, limit) = (self.endpoints, batchSize)
        for (share, start) in joined {
            // Each page is fetched while the one before it is applied.
            var fetching = Task { try await endpoints.sharedPage(share, after: start, limit: limit) }
            while true {
                let page: SyncSharedPage
                do {
                    page = try await fetching.value
                } catch let error as SyncServerError where error.reason == .forbidden {
                    try await applying { [server] db in
                        guard let coordinator = db.syncCoordinator else { throw StoreError.misuse("sync is not configured") }
                        try coordinator.sharing(in: db).remove(share: share)
                        try SyncStorage.setShareReading(share, server: server.absoluteString, reached: nil, in: db)
                    }
                    break
                }
                try Task.checkCancellation()
                if let next = page.next { fetching = Task { try await endpoints.sharedPage(share, after: next, limit: limit) } }
                do {
                    try await applying { [server] db in
                        guard let coordinator = db.syncCoordinator else { throw StoreError.misuse("sync is not configured") }
                        let sharing = try coordinator.sharing(in: db)
                        try sharing.merge(page)
                        if page.next == nil { try sharing.removeStaleRows(of: share) }
                        try SyncStorage.setShareReading(share, server: server.absoluteString, reached: page.next, in: db)
                    }
                } catch {
                    fetching.cancel()
                    throw error
                }
                if page.next == nil { break }
            }
        }
    }
}
