import Foundation

/// A fresh directory under the system's temporary directory, removed with everything in it
/// when released. Each benchmark keeps its databases in one.
public final class TemporaryDirectory: Sendable {
    /// Every directory the benchmarks create lives under this one.
    public static let benchmarksRoot = FileManager.default.temporaryDirectory
        .appendingPathComponent("sqlitestore-benchmarks", isDirectory: true)

    /// The directory's location.
    public let url: URL

    /// Creates a new, empty directory.
    public init() throws {
        url = Self.benchmarksRoot.appendingPathComponent("run-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of a file named `name` inside the directory.
    public func path(for name: String) -> String {
        url.appendingPathComponent(name).path
    }
}
