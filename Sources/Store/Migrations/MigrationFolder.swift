import Foundation

/// Reads the migration files of a folder.
enum MigrationFolder {
    /// The migrations of the `.sql` files in `path`, in version order.
    ///
    /// Hidden entries and entries with other extensions are ignored; an entry whose extension
    /// is `sql` in any case must follow the naming rules, be a regular file (or a symbolic link
    /// to one) and hold UTF-8 text. Folders, FIFOs, devices, sockets, broken links and link
    /// loops are refused with what they are, before anything reads from them.
    static func load(_ path: String) throws -> [Migration] {
        try fileNames(in: path).map { fileName in
            let filePath = (path as NSString).appendingPathComponent(fileName)
            // The bytes go as soon as the text is made: a large file is held once, not twice.
            let text = try text(of: readFile(filePath), path: filePath)
            let (version, name) = try MigrationFileName.parse(fileName, path: filePath)
            return try Migration(version: version, name: name, sql: text, path: filePath)
        }
    }

    /// The names of the entries of `path` that look like migration files, sorted.
    static func fileNames(in path: String) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw MigrationError.unreadableFolder(path: path, reason: "no such folder")
        }
        guard isFolder.boolValue else { throw MigrationError.unreadableFolder(path: path, reason: "not a folder") }
        guard let folder = opendir(path) else {
            throw MigrationError.unreadableFolder(path: path, reason: String(cString: strerror(errno)))
        }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard bytes.first != UInt8(ascii: "."), isMigrationExtension(bytes) else { continue }
            // A name that is not UTF-8 cannot be named again through `String`: it would become another file.
            guard let name = String(validUTF8: bytes) else {
                throw MigrationError.unreadableFile(
                    path: (path as NSString).appendingPathComponent(String(decoding: bytes, as: UTF8.self)),
                    reason: "the file name is not valid UTF-8; rename it")
            }
            names.append(name)
        }
        return names.sorted()
    }

    /// Whether a file name ends in `.sql`, in any case.
    private static func isMigrationExtension(_ name: [UInt8]) -> Bool {
        let suffix = Array(".\(MigrationFileName.fileExtension)".utf8)
        return name.count > suffix.count && zip(name.suffix(suffix.count), suffix).allSatisfy { $0 | 0x20 == $1 }
    }

    /// The bytes of the regular file at `path`.
    ///
    /// The file is opened without waiting (a FIFO would block a plain open until a writer
    /// came) and checked with `fstat` on the opened descriptor, so what is read is what was checked.
    private static func readFile(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(path, errno: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw unreadable(path, errno: errno) }
        let kind = FileKind(mode: info.st_mode)
        guard kind.isRegularFile else {
            throw MigrationError.unreadableFile(
                path: path, reason: "\(isLink(path) ? "a symbolic link to " : "")\(kind), not a migration file")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count == 0 { break }
            guard count > 0 else {
                if errno == EINTR { continue }
                throw unreadable(path, errno: errno)
            }
            bytes.append(contentsOf: chunk[..<count])
        }
        return bytes
    }

    /// The UTF-8 text of a file's bytes.
    private static func text(of bytes: [UInt8], path: String) throws -> String {
        guard !bytes.contains(0), let text = String(validUTF8: bytes) else {
            throw MigrationError.unreadableFile(path: path, reason: "not UTF-8 text")
        }
        return text
    }

    private static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    private static func unreadable(_ path: String, errno error: Int32) -> MigrationError {
        let reason =
            switch error {
            case ELOOP: "a symbolic link loop, not a migration file"
            case ENOENT: isLink(path) ? "a symbolic link to a file that does not exist" : "the file disappeared while reading the folder"
            case EACCES: "permission denied"
            default: String(cString: strerror(error))
            }
        return .unreadableFile(path: path, reason: reason)
    }
}
