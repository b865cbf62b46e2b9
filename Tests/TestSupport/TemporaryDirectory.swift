import Foundation
import SQLiteStoreCore

/// A fresh directory under the system's temporary directory, removed with its contents on release.
///
/// Suites keep one as a stored property: Swift Testing makes a suite instance per test,
/// so every test gets its own directory, removed when the test ends.
public final class TemporaryDirectory: Sendable {
    /// The directory's location.
    public let url: URL

    /// Creates the directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("SQLiteStoreTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of the file `name` inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// A store on the file `name` with `schema` (a script) applied in one write.
    public func makeStore(
        named name: String = "test.sqlite", configuration: StoreConfiguration = StoreConfiguration(),
        schema: String? = nil
    ) throws -> Store {
        let store = try Store(path: path(name), configuration: configuration)
        if let schema {
            try store.write { db in try db.execute(script: schema) }
        }
        return store
    }
}
