import Foundation
import SQLiteStore

/// Opens a database for `store watch` without ever writing to it: a read-only store opens
/// the file only if it exists, keeps its journal mode, and makes every connection `query_only`.
enum WatchDatabase {
    static func open(path: String) throws -> Store {
        var configuration = StoreConfiguration()
        configuration.isReadOnly = true
        configuration.readerCount = 1
        do {
            // SQLite takes an empty file for an empty database; for watch it is a mistake.
            guard fileSize(path) != 0 else { throw unavailable(path, "is empty, not a database") }
            return try Store(path: path, configuration: configuration)
        } catch let error as StoreError where error.code == .cantOpen {
            throw unavailable(path, cannotOpenReason(path), error)
        } catch let error as StoreError where error.code == .notADatabase {
            throw unavailable(path, "is not an SQLite database", error)
        } catch let error as StoreError {
            throw CommandFailure(status: .databaseUnavailable, kind: "database",
                                 message: "cannot open the database \(path): \(error.message)", storeError: error)
        }
    }

    private static func unavailable(_ path: String, _ reason: String, _ error: StoreError? = nil) -> CommandFailure {
        CommandFailure(status: .databaseUnavailable, kind: "database", message: "\(path) \(reason)", storeError: error)
    }

    /// Why SQLite could not open `path` (`SQLITE_CANTOPEN`), in words.
    private static func cannotOpenReason(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "does not exist" }
        return isDirectory.boolValue ? "is a folder, not a database" : "cannot be opened"
    }

    /// The file's size in bytes, or `nil` when it cannot be read (the store then says why).
    private static func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }
}
