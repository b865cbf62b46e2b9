import Foundation
import SQLiteStoreCore

/// One migration in `status --json` and in refusals: its version, name, state and ledger record.
struct MigrationEntryReport: Encodable {
    let version: Int
    let name: String
    /// `applied`, `pending`, `edited`, `missing` or `unknown`.
    let state: String
    let outOfOrder: Bool
    let file: String?
    let checksum: String?
    let appliedChecksum: String?
    /// ISO 8601, UTC.
    let appliedAt: String?
    let durationMs: Int?

    init(_ entry: MigrationStatus.Entry) {
        version = entry.version
        name = entry.name
        state = entry.state.rawValue
        outOfOrder = entry.isOutOfOrder
        file = entry.location
        checksum = entry.checksum
        appliedChecksum = entry.appliedChecksum
        appliedAt = entry.appliedAt?.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        durationMs = entry.duration.map { Int($0 / .milliseconds(1)) }
    }
}
