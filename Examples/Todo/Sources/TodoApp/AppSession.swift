import Foundation
import SQLiteStore
import TodoKit

/// What the app runs on, in the terminal and in SwiftUI alike: its database, migrated and
/// syncing, the screen's view model and, given a server, the sync.
@MainActor
final class AppSession {
    let store: Store
    let screen: TodoScreen
    let sync: TodoSync?

    /// Opens the database at `options.databasePath`, or at `defaultPath`.
    init(options: LaunchOptions, defaultPath: String) throws {
        store = try TodoDatabase.open(at: options.databasePath ?? defaultPath)
        screen = TodoScreen(store: store)
        if let server = options.server, let token = options.token {
            sync = TodoSync(store: store, server: server, token: token)
        } else {
            sync = nil
        }
    }

    /// Where the SwiftUI app keeps its database: `TodoApp/todo.sqlite` in Application Support,
    /// or in the temporary directory where there is none.
    static var applicationSupportPath: String {
        let manager = FileManager.default
        let base = manager.urls(for: .applicationSupportDirectory, in: .userDomainMask).first ?? manager.temporaryDirectory
        let folder = base.appendingPathComponent("TodoApp", isDirectory: true)
        try? manager.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("todo.sqlite").path
    }
}
