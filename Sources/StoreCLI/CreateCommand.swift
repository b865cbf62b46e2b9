import ArgumentParser
import Foundation
import SQLiteStoreCore

/// `store create NAME`: writes the next numbered migration file.
struct CreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Write the next numbered migration file, with an up and a -- down section, and print its path.",
        discussion: """
            The number is one more than the highest in the migrations folder, padded like the \
            existing files (4 digits in a new folder, which is created if needed).

            Example: store create add_tags     (prints Migrations/0005_add_tags.sql)
            """
    )

    @OptionGroup var options: StoreOptions

    @Argument(help: "The migration's name: letters, digits and _.")
    var name: String

    func validate() throws {
        guard MigrationFileName.isValidName(name) else {
            throw ValidationError("the name \"\(name)\" must be ASCII letters, digits and _")
        }
    }

    func run() throws {
        let output = CommandOutput(options)
        var report: CreateReport?
        let failure = CommandFailure.catching {
            try createFolderIfNeeded()
            let existing = try options.loadMigrator().migrations
            let (version, overflow) = (existing.last?.version ?? 0).addingReportingOverflow(1)
            if overflow { throw CommandFailure(status: .usage, kind: "io", message: "no version number is left after \(Int.max)") }
            let fileName = MigrationFileName.make(version: version, name: name, digits: Self.digits(of: existing))
            let path = (options.migrations as NSString).appendingPathComponent(fileName)
            try write(Self.template(fileName), to: path)
            report = CreateReport(path: path, version: version, name: name)
            output.say(path)
        }
        try output.finish("create", body: report, failure: failure)
    }

    /// The widest version number of the existing files, at least 4 digits.
    private static func digits(of migrations: [Migration]) -> Int {
        migrations.compactMap { migration in
            migration.path.map { ($0 as NSString).lastPathComponent.prefix { $0 != "_" }.count }
        }.max().map { max($0, 4) } ?? 4
    }

    private func createFolderIfNeeded() throws {
        do {
            try FileManager.default.createDirectory(atPath: options.migrations, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(status: .usage, kind: "io", message: "cannot create \(options.migrations): \(error.localizedDescription)")
        }
    }

    private func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
        } catch {
            throw CommandFailure(status: .usage, kind: "io", message: "cannot write \(path): \(error.localizedDescription)")
        }
    }

    private static func template(_ fileName: String) -> String {
        """
        -- \(fileName)
        -- Up: the SQL that applies this migration. It runs in one transaction with its ledger
        -- row; foreign keys are off and PRAGMA foreign_key_check runs before the commit.


        -- down
        -- Down: the SQL that undoes the up section. Without statements here the migration
        -- cannot be undone.

        """
    }
}

/// The JSON fields of `create`.
struct CreateReport: Encodable {
    /// The new file's path.
    let path: String
    /// Its version.
    let version: Int
    /// Its name.
    let name: String
}
