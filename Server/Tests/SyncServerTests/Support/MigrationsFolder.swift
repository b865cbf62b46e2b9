import Foundation
import SyncServerHarness

/// A folder of migrations in the test cluster's folder, made once per cluster and shared by
/// the suites that use it.
enum MigrationsFolder {
    /// The folder `name` of the cluster holding `files` (name → SQL), written once: in a draft
    /// folder moved into place, so that concurrent tests never read it half written.
    static func make(_ name: String, files: [String: String]) throws -> URL {
        let folder = try PostgresCluster.shared.get().folder.appendingPathComponent(name)
        guard !FileManager.default.fileExists(atPath: folder.path) else { return folder }
        let draft = folder.deletingLastPathComponent().appendingPathComponent("draft-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: draft, withIntermediateDirectories: true)
        for (file, sql) in files { try Data(sql.utf8).write(to: draft.appendingPathComponent(file)) }
        if (try? FileManager.default.moveItem(at: draft, to: folder)) == nil { try? FileManager.default.removeItem(at: draft) }
        return folder
    }
}
