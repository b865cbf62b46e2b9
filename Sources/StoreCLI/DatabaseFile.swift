import Foundation
import SQLiteStoreCore

/// The database file a command names, looked at before SQLite opens it: whether it exists,
/// is a regular file holding an SQLite database, and in which journal mode.
///
/// SQLite takes an empty file for an empty database and opens devices and pipes like files,
/// and refuses a path longer than its limit without saying why; the command refuses them
/// first (exit 3), without writing a byte, and says what is wrong.
struct DatabaseFile {
    /// What the path holds.
    enum Content: Equatable {
        /// Nothing: no file at the path.
        case missing
        /// An SQLite database; `isWAL` when its header says write-ahead logging.
        case database(isWAL: Bool)
    }

    let path: String
    let content: Content

    /// The 16 bytes every SQLite database file starts with.
    private static let magic = Array("SQLite format 3\0".utf8)

    /// Looks at `path`; throws exit 3 for anything but a missing file or a database,
    /// unless `allowEmpty` (an empty file is then an empty database, as SQLite sees it).
    init(path: String, allowEmpty: Bool = false) throws {
        self.path = path
        if let problem = DatabasePathLimit.problem(with: path) { throw Self.unavailable(path, "cannot be opened: \(problem)") }
        // O_NONBLOCK: opening a FIFO must not wait for a writer.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let error = errno
            guard error == ENOENT, !Self.isDanglingLink(path) else { throw Self.unavailable(path, Self.reason(errno: error, path)) }
            content = .missing
            return
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Self.unavailable(path, Self.reason(errno: errno, path)) }
        let kind = FileKind(mode: info.st_mode)
        guard kind.isRegularFile else { throw Self.unavailable(path, "is \(kind), not a database file") }
        var header = [UInt8](repeating: 0, count: 100)
        let count = read(descriptor, &header, header.count)
        guard count >= 0 else { throw Self.unavailable(path, Self.reason(errno: errno, path)) }
        if count == 0 {
            guard allowEmpty else { throw Self.unavailable(path, "is empty, not a database") }
            content = .database(isWAL: false)
            return
        }
        guard count == header.count, Array(header.prefix(Self.magic.count)) == Self.magic else {
            throw Self.unavailable(path, "is not an SQLite database")
        }
        // Bytes 18 and 19: the file format's write and read versions, 2 for WAL.
        content = .database(isWAL: header[18] == 2 || header[19] == 2)
    }

    /// Whether the file exists.
    var exists: Bool { content != .missing }

    /// The SQLite URI that reads the database without changing a byte of it and, wherever
    /// SQLite allows, without leaving a `-wal` or `-shm` file that was not there.
    ///
    /// - A rollback-journal database opens read-only (`mode=ro`): SQLite creates nothing.
    /// - A WAL database whose `-shm` exists (someone has it open, or left it) opens read-only:
    ///   both files were there already, and a read-only connection never checkpoints.
    /// - A WAL database with neither file has nothing outside the main file, but SQLite needs
    ///   a `-shm` to read it. When the file and its folder are writable it opens without
    ///   `SQLITE_OPEN_CREATE` and with `query_only` (the store's read-only configuration):
    ///   the last connection to close deletes the `-wal` and `-shm` it made, and since the
    ///   WAL stayed empty its checkpoint writes nothing. Otherwise, when `followsChanges` is
    ///   false (a one-time read), it opens as `immutable`, which reads the main file with no
    ///   locks and no side files: right unless another process writes during the read.
    /// - A WAL database with a `-wal` but no `-shm` (left by a crashed writer) opens
    ///   read-only; SQLite creates the `-shm` it needs to read the WAL, and it stays.
    func readOnlyURI(followsChanges: Bool) -> String {
        let uri = (path.hasPrefix("/") ? "file://" : "file:") + Self.percentEncoded(path)
        guard case .database(isWAL: true) = content else { return uri + "?mode=ro" }
        let sharedMemoryExists = access(path + "-shm", F_OK) == 0
        let logExists = access(path + "-wal", F_OK) == 0
        if sharedMemoryExists || logExists { return uri + "?mode=ro" }
        let folder = (path as NSString).deletingLastPathComponent
        if access(path, W_OK) == 0 && access(folder.isEmpty ? "." : folder, W_OK) == 0 { return uri + "?mode=rw" }
        return uri + (followsChanges ? "?mode=ro" : "?mode=ro&immutable=1")
    }

    /// `path` with every byte but unreserved characters and `/` percent-encoded, as SQLite's
    /// URI filenames decode them back (so `?`, `#` and `%` in a name stay part of it).
    private static func percentEncoded(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return encoded
    }

    /// The store at `location` (the path, or a URI for it), or the exit-3 failure that says
    /// why SQLite refused it.
    func openStore(at location: String, configuration: StoreConfiguration) throws -> Store {
        do {
            return try Store(path: location, configuration: configuration)
        } catch let error as StoreError {
            let reason = error.code == .notADatabase ? "is not an SQLite database" : "cannot be opened: \(error.message)"
            throw CommandFailure(status: .databaseUnavailable, kind: "database", message: "\(path) \(reason)", storeError: error)
        }
    }

    /// The exit-3 failure for a path that cannot be used as a database.
    static func unavailable(_ path: String, _ reason: String) -> CommandFailure {
        CommandFailure(status: .databaseUnavailable, kind: "database", message: "\(path) \(reason)")
    }

    private static func isDanglingLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    private static func reason(errno error: Int32, _ path: String) -> String {
        switch error {
        case ENOENT: "is a symbolic link to a file that does not exist"
        case ELOOP: "is a symbolic link loop"
        case EACCES: "cannot be read: permission denied"
        case ENOTDIR: "does not exist (a part of the path is not a folder)"
        default: "cannot be read: \(String(cString: strerror(error)))"
        }
    }
}
