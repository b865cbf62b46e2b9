import CSQLite
import Foundation

/// The longest path SQLite opens a database file at, and the sentence that says a path is longer.
///
/// SQLite makes the path absolute (resolving symbolic links) and refuses it, with no more than
/// "unable to open database file", when it leaves no room for the names of the `-journal` and
/// `-wal` files beside it: more than the default VFS's `mxPathname` (512 bytes on Unix) less 8.
package enum DatabasePathLimit {
    /// The room SQLite keeps for the suffix of the journal's name.
    private static let journalSuffixRoom = 8

    /// The VFS's limit on a path, in bytes.
    package static var vfsLimit: Int { Int(sqlite3_vfs_find(nil)?.pointee.mxPathname ?? 512) }

    /// The most bytes the absolute path of a database file may have.
    package static var maximumBytes: Int { vfsLimit - journalSuffixRoom }

    /// Why SQLite cannot open a database at `path` (a file path, not a URI) because of its
    /// length, or `nil` when the length is not a problem.
    package static func problem(with path: String) -> String? {
        let absolute = absolutePath(path)
        let bytes = absolute.utf8.count
        guard bytes > maximumBytes else { return nil }
        let resolved = absolute == path ? "" : " (\(absolute))"
        return "the path\(resolved) is \(bytes) bytes long, and SQLite opens a database only at a path of at most "
            + "\(maximumBytes) bytes (its limit of \(vfsLimit), less \(journalSuffixRoom) for the -journal and -wal names); "
            + "move the file or open it through a shorter path"
    }

    /// `path` as SQLite sees it: absolute, with the symbolic links of its folder resolved.
    private static func absolutePath(_ path: String) -> String {
        if let resolved = realPath(path) { return resolved }  // the file exists
        let folder = (path as NSString).deletingLastPathComponent
        if let resolvedFolder = realPath(folder.isEmpty ? "." : folder) {
            return (resolvedFolder as NSString).appendingPathComponent((path as NSString).lastPathComponent)
        }
        return path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
