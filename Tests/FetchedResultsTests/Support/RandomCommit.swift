import Foundation
import SQLiteStoreCore

/// One statement of a random transaction; a statement that `mayFail` (a constraint
/// violation under ABORT, say) is caught, and the transaction still commits what SQLite kept.
/// One that `mayRollBack` (`OR ROLLBACK`) ends the transaction when it fails: the write then
/// throws, and nothing of it is committed.
///
/// One `inRolledBackSavepoint` runs in a savepoint that is then rolled back: nothing of it stays.
struct RandomStatement {
    let sql: String
    let arguments: [any DatabaseValueConvertible]
    var mayFail = false
    var mayRollBack = false
    var inRolledBackSavepoint = false

    func execute(_ db: Database) throws {
        if inRolledBackSavepoint {
            struct RolledBack: Error {}
            _ = try? db.transaction {
                _ = try? db.execute(sql: sql, arguments: arguments)
                throw RolledBack()
            }
        } else if mayFail || mayRollBack {
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
    static func run(_ statements: [RandomStatement], store: Store, other: Store, _ random: inout SeededGenerator) async throws {
        let mayRollBack = statements.contains { $0.mayRollBack }
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<8:
            struct Rollback: Error {}
            _ = try? await store.write { db in
                for statement in statements { try statement.execute(db) }
                throw Rollback()
            }
        case 8..<18:
            try await commit(statements, on: other, mayRollBack: mayRollBack)
            if Bool.random(using: &random) {
                try other.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            }
            try store.checkForExternalChanges()
        default:
            try await commit(statements, on: store, mayRollBack: mayRollBack)
        }
    }

    /// Commits `statements` on `store`; when a statement may have rolled the transaction back,
    /// the write's failure (the statements after it, or the commit, find no transaction) is expected.
    private static func commit(_ statements: [RandomStatement], on store: Store, mayRollBack: Bool) async throws {
        do {
            try await store.write { db in
                for statement in statements { try statement.execute(db) }
            }
        } catch is StoreError where mayRollBack {}
    }
}
