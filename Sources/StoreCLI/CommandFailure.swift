import SQLiteStoreCore

/// Why a subcommand failed: its exit status, a message for people and details for `--json`.
struct CommandFailure: Error {
    /// The exit status.
    let status: ExitStatus
    /// The details, also printed as text.
    let report: ErrorReport

    init(status: ExitStatus, kind: String, message: String, storeError: StoreError? = nil) {
        self.status = status
        report = ErrorReport(kind: kind, message: message, storeError: storeError)
    }

    init(status: ExitStatus, report: ErrorReport) {
        self.status = status
        self.report = report
    }

    /// The failure for any error a subcommand meets.
    init(_ error: any Error) {
        switch error {
        case let failure as CommandFailure:
            self = failure
        case let error as MigrationError:
            self.init(status: Self.status(of: error), report: ErrorReport(error))
        case let error as StoreError:
            let unavailable: Set<ResultCode> = [.notADatabase, .cantOpen, .corrupt]
            self.init(
                status: unavailable.contains(error.code) ? .databaseUnavailable : .failed,
                kind: "sqlite", message: error.description, storeError: error)
        default:
            self.init(status: .failed, kind: "other", message: String(describing: error))
        }
    }

    /// Runs `body` and returns its failure, if any.
    static func catching(_ body: () throws -> Void) -> CommandFailure? {
        do {
            try body()
            return nil
        } catch {
            return CommandFailure(error)
        }
    }

    private static func status(of error: MigrationError) -> ExitStatus {
        switch error {
        case .unreadableFolder, .unreadableFile, .invalidMigration, .duplicateVersion, .unknownVersion: .usage
        case .editedOrMissing, .outOfOrder, .irreversible, .migrationFailed: .failed
        }
    }
}
