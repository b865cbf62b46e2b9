/// Which way a migration runs.
public enum MigrationDirection: String, Sendable, Hashable {
    /// Applying: the up section, or the `up` closure.
    case up
    /// Undoing: the down section, or the `down` closure.
    case down
}
