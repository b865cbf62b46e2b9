/// Why the migrator refused to run or could not read its migrations.
///
/// SQLite errors from the ledger and from opening transactions are thrown as `StoreError`.
public enum MigrationError: Error, CustomStringConvertible {
    /// The migrations folder does not exist, is not a folder, or cannot be listed.
    case unreadableFolder(path: String, reason: String)
    /// A migration file cannot be read or is not UTF-8 text.
    case unreadableFile(path: String, reason: String)
    /// A migration is malformed: a file name that is not `NNNN_name.sql`, an unknown
    /// `-- store:` directive, two `-- down` lines, a transaction statement in a
    /// transactional file, a version below 1.
    case invalidMigration(location: String, line: Int?, reason: String)
    /// Two migrations have the same version.
    case duplicateVersion(Int, locations: [String])
    /// A target version that no migration has (and, for rollback, no applied migration has).
    case unknownVersion(Int)
    /// Applied migrations whose text changed (`.edited`) or that are no longer known
    /// (`.missing`); pass `.allowEdited` to run anyway.
    case editedOrMissing([MigrationStatus.Entry])
    /// Pending migrations older than the newest applied one; pass `.allowOutOfOrder` to apply them.
    case outOfOrder([MigrationStatus.Entry])
    /// Migrations to roll back that have no down section, or no file any more; nothing was undone.
    case irreversible([MigrationStatus.Entry])
    /// A migration failed while running.
    case migrationFailed(MigrationFailure)

    /// A message naming the files and versions concerned and what to do.
    public var description: String {
        switch self {
        case .unreadableFolder(let path, let reason):
            "cannot read the migrations folder \(path): \(reason)"
        case .unreadableFile(let path, let reason):
            "cannot read \(path): \(reason)"
        case .invalidMigration(let location, let line, let reason):
            "\(line.map { "\(location):\($0)" } ?? location): \(reason)"
        case .duplicateVersion(let version, let locations):
            "version \(version) is used by more than one migration: \(locations.joined(separator: ", "))"
        case .unknownVersion(let version):
            "no migration has version \(version)"
        case .editedOrMissing(let entries):
            "applied migrations were edited or are missing:\n" + Self.list(entries)
                + "\nrestore them, or pass --allow-edited (MigrationOptions.allowEdited) to run anyway"
        case .outOfOrder(let entries):
            "pending migrations are older than the newest applied one:\n" + Self.list(entries)
                + "\nrenumber them, or pass --allow-out-of-order (MigrationOptions.allowOutOfOrder) to apply them"
        case .irreversible(let entries):
            "cannot undo; nothing was changed:\n"
                + entries.map { "  \($0.label): " + ($0.state == .applied ? "has no down section" : $0.state.explanation) }
                .joined(separator: "\n")
        case .migrationFailed(let failure):
            failure.description
        }
    }

    private static func list(_ entries: [MigrationStatus.Entry]) -> String {
        entries.map { "  \($0.label): \($0.state.explanation)" }.joined(separator: "\n")
    }
}
