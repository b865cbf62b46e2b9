import Foundation
import SQLiteStore

/// The app's schema: the numbered SQL files of `Migrations/`, shipped in TodoKit's resource
/// bundle. The sync server is given the same folder (`sync-server --migrations`), so that it
/// knows the synced tables at every version of the app.
public enum TodoMigrations {
    /// The bundled folder of migration files, if the bundle has it.
    public static var folder: URL? { Bundle.module.url(forResource: "Migrations", withExtension: nil) }

    /// A migrator with every migration of the app, in version order.
    /// - Throws: ``TodoDatabaseError/migrationsNotBundled`` when the folder is missing, or the
    ///   `MigrationError` of a malformed file.
    public static func migrator() throws -> Migrator {
        guard let folder else { throw TodoDatabaseError.migrationsNotBundled }
        return try Migrator(folder: folder.path)
    }
}
