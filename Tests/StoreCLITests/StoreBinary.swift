// The `store` command runs as a separate process (`Process`, signals): Linux and macOS only.
#if os(Linux) || os(macOS)
import Foundation
import TestSupport

/// The `store` executable built next to the tests, run as a separate process.
///
/// SwiftPM puts executables and the test bundle in the same products folder
/// (`.build/debug`). On Linux the test runner is the `.xctest` executable itself, so
/// `Bundle.main` is that folder; on macOS the runner is Xcode's `xctest`, which loads the
/// bundle. `STORE_BINARY` overrides both.
enum StoreBinary {
    static let url: URL = {
        if let path = ProcessInfo.processInfo.environment["STORE_BINARY"] { return URL(fileURLWithPath: path) }
        return productsFolder.appendingPathComponent("store")
    }()

    private static var productsFolder: URL {
        #if os(macOS)
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return Bundle.main.bundleURL
    }

    /// Starts `store arguments…` in `folder`, through `launcher` (a command that runs the
    /// command it is given, such as `Unprivileged.launcher`) if any; call `finish()` on the result.
    static func start(_ arguments: [String], in folder: URL, launcher: [String] = []) throws -> RunningStore {
        try RunningStore(arguments: arguments, folder: folder, launcher: launcher)
    }
}

/// A `store` process; its output goes to files, so that a full pipe can never block it.
final class RunningStore {
    private let process: SpawnedProcess
    private let outputURL: URL
    private let errorURL: URL

    init(arguments: [String], folder: URL, launcher: [String] = []) throws {
        let id = UUID().uuidString
        outputURL = folder.appendingPathComponent(".stdout-\(id)")
        errorURL = folder.appendingPathComponent(".stderr-\(id)")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        process = try SpawnedProcess(
            launcher.first.map(URL.init(fileURLWithPath:)) ?? StoreBinary.url,
            launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [StoreBinary.url.path] + arguments,
            in: folder,
            standardOutput: .handle(try FileHandle(forWritingTo: outputURL)),
            standardError: .handle(try FileHandle(forWritingTo: errorURL)))
    }

    /// Waits for the process to exit and returns what it printed.
    func finish() async throws -> StoreResult {
        let exitCode = try await process.exited()
        defer {
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        return StoreResult(
            exitCode: exitCode,
            output: try String(contentsOf: outputURL, encoding: .utf8),
            error: try String(contentsOf: errorURL, encoding: .utf8))
    }
}

/// How a `store` process ended.
struct StoreResult: CustomStringConvertible {
    let exitCode: Int32
    /// Standard output.
    let output: String
    /// Standard error.
    let error: String

    /// Standard output parsed as one JSON object.
    func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8))
        guard let dictionary = object as? [String: Any] else {
            throw CocoaError(.propertyListReadCorrupt, userInfo: [NSDebugDescriptionErrorKey: "not a JSON object: \(output)"])
        }
        return dictionary
    }

    var description: String { "exit \(exitCode)\n--- stdout\n\(output)--- stderr\n\(error)" }
}
#endif
