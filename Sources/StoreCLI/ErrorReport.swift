import SQLiteStoreCore

/// The `error` object of a JSON document, and the text printed for a failure.
struct ErrorReport: Encodable {
    /// What kind of failure: `migrationFailed`, `editedOrMissing`, `outOfOrder`,
    /// `irreversible`, `invalidMigration`, `unreadableFolder`, `unreadableFile`,
    /// `duplicateVersion`, `unknownVersion`, `differences`, `database`, `sqlite`, `usage`, `io`, `other`.
    let kind: String
    /// A sentence for people.
    let message: String
    var file: String?
    var line: Int?
    var version: Int?
    var statement: String?
    var rolledBack: Bool?
    var sqliteCode: Int32?
    var sqliteExtendedCode: Int32?
    var sqliteMessage: String?
    /// The migrations a refusal is about.
    var migrations: [MigrationEntryReport]?

    init(kind: String, message: String, storeError: StoreError? = nil) {
        self.kind = kind
        self.message = message
        sqliteCode = storeError?.code.rawValue
        sqliteExtendedCode = storeError?.extendedCode
        sqliteMessage = storeError?.message
    }

    init(_ error: MigrationError) {
        if case .migrationFailed(let failure) = error {
            self.init(failure)
            return
        }
        self.init(kind: Self.kind(of: error), message: error.description)
        switch error {
        case .editedOrMissing(let entries), .outOfOrder(let entries), .irreversible(let entries):
            migrations = entries.map(MigrationEntryReport.init)
        case .invalidMigration(let location, let line, _):
            file = location
            self.line = line
        case .unreadableFile(let path, _):
            file = path
        case .duplicateVersion(let version, _), .unknownVersion(let version):
            self.version = version
        case .unreadableFolder, .migrationFailed:
            break
        }
    }

    private init(_ failure: MigrationFailure) {
        let storeError = failure.error as? StoreError
        var message = failure.description
        if let statement = failure.statement { message += "; statement: \(statement)" }
        message +=
            failure.wasRolledBack
            ? "; the migration was rolled back: the database is as it was before it"
            : "; the migration runs outside a transaction: statements before the failing one stay applied"
        self.init(kind: "migrationFailed", message: message, storeError: storeError)
        file = failure.location
        line = failure.line
        version = failure.version
        statement = failure.statement
        rolledBack = failure.wasRolledBack
    }

    private static func kind(of error: MigrationError) -> String {
        switch error {
        case .unreadableFolder: "unreadableFolder"
        case .unreadableFile: "unreadableFile"
        case .invalidMigration: "invalidMigration"
        case .duplicateVersion: "duplicateVersion"
        case .unknownVersion: "unknownVersion"
        case .editedOrMissing: "editedOrMissing"
        case .outOfOrder: "outOfOrder"
        case .irreversible: "irreversible"
        case .migrationFailed: "migrationFailed"
        }
    }
}
