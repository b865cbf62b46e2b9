import Foundation
import SQLiteStoreCore

/// The example schema `store demo` applies where there is no Migrations folder: the files of
/// `Demo/Migrations` (the repository's `Migrations/` is a link to them), which SwiftPM copies
/// into the `store` binary's resource bundle.
enum DemoMigrations {
    /// The bundled folder of the example migrations; `nil` if the bundle has none.
    static var folder: URL? { Bundle.module.url(forResource: "Migrations", withExtension: nil) }

    /// A migrator with the bundled example migrations.
    static func migrator() throws -> Migrator {
        guard let folder else {
            throw CommandFailure(
                status: .failed, kind: "other",
                message: "the example migrations are missing from the store binary's resource bundle; pass --migrations DIR")
        }
        return try Migrator(folder: folder.path)
    }
}
