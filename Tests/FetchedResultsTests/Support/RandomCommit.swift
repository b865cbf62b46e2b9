import Foundation
import SQLiteStoreCore

/// One statement of a random transaction; a statement that `mayFail` (a constraint
/// violation under ABORT, say) is caught, and the transaction still commits what SQLite kept.
struct RandomStatement {
    let sql: String
    let arguments: [any DatabaseValueConvertible]
    var mayFail = false
    /// Whether the statement may end the transaction (`OR ROLLBACK`): then the write throws.
    var rollsBack = false

    func execute(_ db: Database) throws {
        if mayFail {
            _ = try? db.execute(sql: sql, arguments: arguments)
        } else {
            try db.execute(sql: sql, arguments: arguments)
        }
    }
}

/// Runs random transactions the ways a store sees them: rolled back (8%), committed by
/// another connection to the same file (10%, announced with `checkForExternalChanges`, half
/// of the time after a checkpoint that resets the WAL), or committed by the store.
enum RandomCommit {
    static func run(_ statements: [RandomStatement], store: Store, other: Store, _ random: inout SplitMix64) async throws {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<8:
            struct Rollback: Error {}
            _ = try? await store.write { db in
                for statement in statements { try statement.execute(db) }
                throw Rollback()
            }
        case 8..<18:
            try await other.write { db in
                for statement in statements { try statement.execute(db) }
            }
            if Bool.random(using: &random) {
                try other.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            }
            try store.checkForExternalChanges()
        default:
            try await store.write { db in
                for statement in statements { try statement.execute(db) }
            }
        }
    }
}
