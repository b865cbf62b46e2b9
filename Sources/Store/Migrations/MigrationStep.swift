/// A migration the migrator ran: which one, which way, and how long it took.
public struct MigrationStep: Sendable {
    /// The migration.
    public let migration: Migration
    /// Whether it was applied or undone.
    public let direction: MigrationDirection
    /// How long its SQL or closure ran, including the foreign key check.
    public let duration: Duration
}
