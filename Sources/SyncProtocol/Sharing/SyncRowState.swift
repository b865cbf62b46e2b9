/// One row as the server holds it for a device: the winning change of each of its columns and
/// its latest delete. A device takes it instead of what it holds of the row (after a refusal, or
/// when the row moved into or out of a share); with no changes, the device may not hold the row
/// and removes it. A device with subscriptions receives the rows of its pulls so, each with the
/// subscriptions that cover it.
public struct SyncRowState: Sendable, Hashable, Codable {
    /// The row's table.
    public var table: String
    /// The row's key.
    public var key: SyncWireValue
    /// The share the row belongs to for this device (``SyncSharedRow/share``); `nil` for a row
    /// of the device's own account.
    public var share: String?
    /// The row's winning changes; empty when the device may not hold the row.
    public var changes: [SyncWireChange]
    /// For a device with subscriptions, the ones that cover the row (``SyncSubscription/id``):
    /// empty when none does, and the row, which the account may read, leaves the device (its
    /// changes not sent yet are kept and sent). `nil` for a device without subscriptions, and
    /// for a row the account may not read.
    public var subscriptions: [Int64]?

    /// A row's state from its parts.
    public init(
        table: String, key: SyncWireValue, share: String?, changes: [SyncWireChange], subscriptions: [Int64]? = nil
    ) {
        self.table = table
        self.key = key
        self.share = share
        self.changes = changes
        self.subscriptions = subscriptions
    }
}
