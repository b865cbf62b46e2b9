/// Checks the migrator may skip when asked to.
public struct MigrationOptions: OptionSet, Sendable, Hashable {
    /// The options' bits.
    public let rawValue: Int

    /// Creates options from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Run even though applied migrations were edited (their text changed) or are missing
    /// (applied but no longer known); `rollback` then uses the edited down sections.
    public static let allowEdited = MigrationOptions(rawValue: 1 << 0)
    /// Apply pending migrations whose version is older than the newest applied one.
    public static let allowOutOfOrder = MigrationOptions(rawValue: 1 << 1)
}
