/// Workloads `observeUpdate`, `observeInsert`, `observeDelete` and `observeBulk`: a live query
/// (`flag = 1` ordered by score) and the time from a write to its change set in the consumer's hands.
public protocol LiveQueryContender: Contender {
    /// Opens the seeded database at `databasePath`, starts the live query and returns once the
    /// consumer holds the initial results; not measured.
    init(databasePath: String) async throws

    /// Commits `change` in one write transaction and returns once the consumer holds the change
    /// set that transaction caused.
    func commit(_ change: ItemChange) async throws -> ChangeSummary
}
