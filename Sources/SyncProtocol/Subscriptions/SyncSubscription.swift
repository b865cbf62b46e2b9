/// A subscription as a device sends it with its pulls and subscription pages: one of the
/// subsets the server declares, by name, with its parameter. The device numbers its
/// subscriptions; the server's answers name the ones that cover each row by that number.
public struct SyncSubscription: Sendable, Hashable, Codable {
    /// The device's number for the subscription.
    public var id: Int64
    /// The name of a subset the server declares.
    public var name: String
    /// The subset's parameter: a root row's key, or the value a column must hold; `nil` for a
    /// subset without one.
    public var parameter: SyncWireValue?

    /// A subscription from its parts.
    public init(id: Int64, name: String, parameter: SyncWireValue?) {
        self.id = id
        self.name = name
        self.parameter = parameter
    }
}
