import SQLiteStore
import TodoKit

/// A new database in a temporary folder, opened as the app opens it, and the app's screen on
/// it: what the suites that drive the screen start from.
@MainActor
struct OpenedScreen {
    let folder: TemporaryFolder
    let store: Store
    let screen: TodoScreen

    init() throws {
        folder = try TemporaryFolder()
        store = try TodoDatabase.open(at: folder.path("todo.sqlite"))
        screen = TodoScreen(store: store)
    }
}
