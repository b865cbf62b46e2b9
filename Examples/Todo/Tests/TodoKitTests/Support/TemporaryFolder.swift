import Foundation

/// A folder of its own under the system's temporary directory, removed with this object.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("TodoKitTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of the file `name` in the folder.
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
