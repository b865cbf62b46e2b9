import Foundation

/// How a database's applied migrations (its ledger) compare with the known migrations.
public struct MigrationStatus: Sendable {
    /// The state of one migration version.
    public enum State: String, Sendable, Hashable {
        /// Recorded in the ledger with the same checksum as the migration.
        case applied
        /// Known but not applied yet.
        case pending
        /// Applied, but the migration's text changed since (its checksum differs).
        case edited
        /// Applied, but no migration has this version any more, and newer ones exist.
        case missing
        /// Applied, and newer than every known migration: the database is ahead of the files.
        case unknown

        /// A short explanation, for messages.
        public var explanation: String {
            switch self {
            case .applied: "applied"
            case .pending: "not applied yet"
            case .edited: "changed since it was applied (checksum differs)"
            case .missing: "applied, but its migration is gone"
            case .unknown: "applied, and newer than every migration file"
            }
        }
    }

    /// One migration version, known, applied, or both.
    public struct Entry: Sendable, Hashable {
        /// The version.
        public let version: Int
        /// The migration's name, or the name in the ledger when no migration has the version.
        public let name: String
        /// Its state.
        public let state: State
        /// The migration's file or Swift description; `nil` when no migration has the version.
        public let location: String?
        /// The migration's current checksum; `nil` when no migration has the version.
        public let checksum: String?
        /// The checksum recorded when it was applied; `nil` when it is not applied.
        public let appliedChecksum: String?
        /// When it was applied; `nil` when it is not applied.
        public let appliedAt: Date?
        /// How long it took to apply; `nil` when it is not applied.
        public let duration: Duration?
        /// Whether it is pending although a newer migration is applied.
        public let isOutOfOrder: Bool

        /// The location, or the version and name when the migration is unknown.
        public var label: String { location ?? "version \(version) (\(name))" }
    }

    /// Every version known or applied, in version order.
    public let entries: [Entry]

    /// The newest applied version, or `nil` when nothing is applied.
    public let currentVersion: Int?

    /// The entries in `state`, in version order.
    public func entries(_ state: State) -> [Entry] { entries.filter { $0.state == state } }

    /// The entries where files and ledger disagree: every state but `.applied`.
    public var differences: [Entry] { entries.filter { $0.state != .applied } }

    init(migrations: [Migration], ledger: [LedgerEntry]) {
        let known = Dictionary(migrations.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
        let applied = Dictionary(ledger.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
        let newestKnown = known.keys.max() ?? 0
        let newestApplied = applied.keys.max()
        currentVersion = newestApplied
        entries = Set(known.keys).union(applied.keys).sorted().map { version in
            Entry(
                migration: known[version], record: applied[version], version: version,
                newestKnown: newestKnown, newestApplied: newestApplied ?? 0)
        }
    }
}

extension MigrationStatus.Entry {
    init(migration: Migration?, record: LedgerEntry?, version: Int, newestKnown: Int, newestApplied: Int) {
        self.version = version
        name = migration?.name ?? record?.name ?? ""
        location = migration?.location
        checksum = migration?.checksum
        appliedChecksum = record?.checksum
        appliedAt = record?.appliedAt
        duration = record.map { .milliseconds($0.durationMilliseconds) }
        isOutOfOrder = record == nil && version < newestApplied
        switch (migration, record) {
        case (let migration?, let record?): state = migration.checksum == record.checksum ? .applied : .edited
        case (_?, nil): state = .pending
        case (nil, _): state = version > newestKnown ? .unknown : .missing
        }
    }
}
