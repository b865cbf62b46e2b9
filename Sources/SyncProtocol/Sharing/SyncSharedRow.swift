/// A row of another account's data that a pull's changes touch, and the share it reaches the
/// device through: the device removes it with that share when the share is revoked.
public struct SyncSharedRow: Sendable, Hashable, Codable {
    /// The row's table.
    public var table: String
    /// The row's key.
    public var key: SyncWireValue
    /// The share, as the server names it (``SyncMembership/share``).
    public var share: String

    /// A shared row from its parts.
    public init(table: String, key: SyncWireValue, share: String) {
        self.table = table
        self.key = key
        self.share = share
    }
}
