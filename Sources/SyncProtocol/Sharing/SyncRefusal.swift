/// A pushed change that the server refused, storing nothing of it and sending it to no one.
///
/// The rest of its push was stored. The push's answer carries the refused row's state as the
/// server holds it (``SyncPushResponse/rows``), which the device takes instead of its own.
public struct SyncRefusal: Sendable, Hashable, Codable {
    /// Why the server refused a change.
    public enum Reason: String, Sendable, Hashable, Codable {
        /// The row belongs to a share the pushing account reads only.
        case readOnly
        /// The row belongs to another account, which does not share it with the pushing account
        /// (no longer, or never): the answer does not say whether it exists.
        case notShared
        /// The change moves a row between two accounts' data (into or out of a share), which
        /// the server does not do: a row stays in the data of the account that made it.
        case crossesAccounts
    }

    /// The device that made the change.
    public var device: String
    /// The change's sequence on that device.
    public var sequence: Int64
    /// The row's table.
    public var table: String
    /// The row's key.
    public var key: SyncWireValue
    /// The column the change set; `nil` for a delete.
    public var column: String?
    /// Why it was refused.
    public var reason: Reason
    /// The reason, for people.
    public var message: String

    /// A refusal from its parts.
    public init(
        device: String, sequence: Int64, table: String, key: SyncWireValue, column: String?, reason: Reason, message: String
    ) {
        self.device = device
        self.sequence = sequence
        self.table = table
        self.key = key
        self.column = column
        self.reason = reason
        self.message = message
    }
}
