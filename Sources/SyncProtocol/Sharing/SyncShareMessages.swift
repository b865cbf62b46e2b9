/// A request to share a root row of the account's data with another account, change the
/// member's role, or revoke it (`role` nil): `POST` ``SyncWireFormat/sharesPath``.
public struct SyncShareRequest: Sendable, Hashable, Codable {
    /// The wire format (``SyncWireFormat/version``).
    public var format: Int
    /// The root row's table, one of the server's share roots.
    public var table: String
    /// The root row's key.
    public var key: SyncWireValue
    /// The name of the account to share with.
    public var member: String
    /// The member's role; `nil` revokes the member.
    public var role: SyncShareRole?

    /// A request in this build's format.
    public init(table: String, key: SyncWireValue, member: String, role: SyncShareRole?) {
        self.format = SyncWireFormat.version
        self.table = table
        self.key = key
        self.member = member
        self.role = role
    }
}

/// A member of a share: an account's name and its role.
public struct SyncShareMember: Sendable, Hashable, Codable {
    /// The member account's name.
    public var account: String
    /// What it may do.
    public var role: SyncShareRole

    /// A member from its parts.
    public init(account: String, role: SyncShareRole) {
        self.account = account
        self.role = role
    }
}

/// The members of one share, as its owner sees them: the answer to a share request and to
/// `GET` ``SyncWireFormat/sharesPath``.
public struct SyncShareMembers: Sendable, Hashable, Codable {
    /// The wire format.
    public var format: Int
    /// The share's name (``SyncMembership/share``).
    public var share: String
    /// Its members, by account name.
    public var members: [SyncShareMember]

    /// An answer in this build's format.
    public init(share: String, members: [SyncShareMember]) {
        self.format = SyncWireFormat.version
        self.share = share
        self.members = members
    }
}

/// A share the account is a member of.
public struct SyncMembership: Sendable, Hashable, Codable {
    /// The share's name, which the server gives it: opaque to devices, unique on the server.
    public var share: String
    /// The owner account's name.
    public var owner: String
    /// The root row's table.
    public var table: String
    /// The root row's key.
    public var key: SyncWireValue
    /// The account's role.
    public var role: SyncShareRole

    /// A membership from its parts.
    public init(share: String, owner: String, table: String, key: SyncWireValue, role: SyncShareRole) {
        self.share = share
        self.owner = owner
        self.table = table
        self.key = key
        self.role = role
    }
}

/// The shares the account is a member of: the answer to `GET` ``SyncWireFormat/membershipsPath``.
public struct SyncMemberships: Sendable, Hashable, Codable {
    /// The wire format.
    public var format: Int
    /// The shares, by name.
    public var shares: [SyncMembership]

    /// An answer in this build's format.
    public init(shares: [SyncMembership]) {
        self.format = SyncWireFormat.version
        self.shares = shares
    }
}

/// One page of a share's or a subscription's current rows, in (table, key) order by bytes: the
/// answer to `GET` ``SyncWireFormat/sharedPath``, which a member's device reads when it joins
/// the share, and to `GET` ``SyncWireFormat/subscribedPath``, which a device reads when it
/// subscribes.
public struct SyncSharedPage: Sendable, Hashable, Codable {
    /// The wire format.
    public var format: Int
    /// The rows, each with its share named (`nil`: the account's own).
    public var rows: [SyncRowState]
    /// Where the next page starts; `nil` on the last page.
    public var next: SyncSnapshotPosition?
    /// On a subscription's page, the latest sequence of the account's changes when the page was
    /// read: where the pulls of a device that holds nothing yet may start.
    public var cursor: Int64?

    /// A page in this build's format.
    public init(rows: [SyncRowState], next: SyncSnapshotPosition?, cursor: Int64? = nil) {
        self.format = SyncWireFormat.version
        self.rows = rows
        self.next = next
        self.cursor = cursor
    }
}
