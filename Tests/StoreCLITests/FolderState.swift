import Foundation

/// Every file of a folder, with its bytes and modification time, except the output files the
/// tests' own processes write (`.stdout-…`, `.stderr-…`, `.watch-stderr-…`): comparing two
/// states shows whether a command changed, created or left behind anything.
struct FolderState: Equatable, CustomStringConvertible {
    struct File: Equatable {
        let bytes: Data
        let modified: Date?
    }

    let files: [String: File]

    init(_ folder: URL) throws {
        var files: [String: File] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where ![".stdout-", ".stderr-", ".watch-stderr-"].contains(where: name.hasPrefix) {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            files[name] = File(
                bytes: try Data(contentsOf: url),
                modified: try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
        }
        self.files = files
    }

    var description: String { files.keys.sorted().map { "\($0) (\(files[$0]?.bytes.count ?? 0) bytes)" }.joined(separator: ", ") }
}

/// Runs a command as the unprivileged user `nobody` when the tests run as root (root ignores
/// file permissions, so a read-only file or folder would prove nothing), as the current user otherwise.
enum Unprivileged {
    /// The launcher for `StoreBinary.start`; `nil` when the tests run as root and `setpriv` is missing.
    static let launcher: [String]? = {
        guard getuid() == 0 else { return [] }
        let setpriv = "/usr/bin/setpriv"
        guard FileManager.default.isExecutableFile(atPath: setpriv) else { return nil }
        return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
    }()

    /// Why read-only checks cannot run here, if they cannot.
    static let unavailableReason: String? =
        launcher == nil ? "running as root without /usr/bin/setpriv: root ignores file permissions" : nil
}
