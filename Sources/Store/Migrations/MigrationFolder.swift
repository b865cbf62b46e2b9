import Foundation

/// Reads the migration files of a folder.
enum MigrationFolder {
    /// The migrations of the `.sql` files in `path`, in version order.
    ///
    /// Hidden files, folders and files with other extensions are ignored; a file whose
    /// extension is `sql` in any case must follow the naming rules.
    static func load(_ path: String) throws -> [Migration] {
        try fileNames(in: path).map { fileName in
            let filePath = (path as NSString).appendingPathComponent(fileName)
            let (version, name) = try MigrationFileName.parse(fileName, path: filePath)
            return try Migration(version: version, name: name, sql: readText(filePath), path: filePath)
        }
    }

    /// The names of the files in `path` that look like migrations, sorted.
    static func fileNames(in path: String) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw MigrationError.unreadableFolder(path: path, reason: "no such folder")
        }
        guard isFolder.boolValue else { throw MigrationError.unreadableFolder(path: path, reason: "not a folder") }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw MigrationError.unreadableFolder(path: path, reason: error.localizedDescription)
        }
        return names.filter { name in
            !name.hasPrefix(".")
                && (name as NSString).pathExtension.lowercased() == MigrationFileName.fileExtension
                && !isFolderAt((path as NSString).appendingPathComponent(name))
        }.sorted()
    }

    private static func isFolderAt(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    private static func readText(_ path: String) throws -> String {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw MigrationError.unreadableFile(path: path, reason: error.localizedDescription)
        }
        guard let text = String(data: data, encoding: .utf8), !data.contains(0) else {
            throw MigrationError.unreadableFile(path: path, reason: "not UTF-8 text")
        }
        return text
    }
}
