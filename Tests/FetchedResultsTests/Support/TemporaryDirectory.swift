import Foundation
import Store

/// A fresh directory under the system's temporary directory, removed with its contents on release.
///
/// Suites keep one as a stored property: Swift Testing makes a suite instance per test,
/// so every test gets its own directory, removed when the test ends.
final class TemporaryDirectory: Sendable {
    /// The directory's location.
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("FetchedResultsTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of the file `name` inside the directory.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// A store on the file `name` with `schema` (a script) applied in one write.
    func makeStore(named name: String = "test.sqlite", schema: String? = nil) throws -> Store {
        let store = try Store(path: path(name))
        if let schema {
            try store.write { db in try db.execute(script: schema) }
        }
        return store
    }
}
