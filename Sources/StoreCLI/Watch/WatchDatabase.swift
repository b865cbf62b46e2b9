import Foundation
import Store

/// Opens a database for `store watch` without ever writing to it.
///
/// The store's writer connection would create a missing file and switch a rollback-journal
/// file to WAL, both writes. So the file must exist and start with SQLite's header; the
/// store keeps the journal mode the header states; and every connection, the writer
/// included, is `query_only`.
enum WatchDatabase {
    static func open(path: String) throws -> Store {
        var configuration = StoreConfiguration()
        configuration.journalMode = try journalMode(ofFileAt: path)
        configuration.readerCount = 1
        configuration.prepareDatabase = { db in try db.execute(sql: "PRAGMA query_only = ON") }
        do {
            return try Store(path: path, configuration: configuration)
        } catch let error as StoreError {
            throw CommandFailure(status: .databaseUnavailable, kind: "database",
                                 message: "cannot open the database \(path): \(error.message)", storeError: error)
        }
    }

    /// The journal mode of the file's header (bytes 18 and 19 are 2 in WAL mode).
    private static func journalMode(ofFileAt path: String) throws -> StoreConfiguration.JournalMode {
        func unavailable(_ reason: String) -> CommandFailure {
            CommandFailure(status: .databaseUnavailable, kind: "database", message: "\(path) \(reason)")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw unavailable("does not exist") }
        guard !isDirectory.boolValue else { throw unavailable("is a folder, not a database") }
        guard let file = FileHandle(forReadingAtPath: path) else { throw unavailable("cannot be read") }
        defer { try? file.close() }
        let header = (try? file.read(upToCount: 100)) ?? Data()
        guard !header.isEmpty else { throw unavailable("is empty, not a database") }
        guard header.count == 100, header.starts(with: Data("SQLite format 3\0".utf8)) else {
            throw unavailable("is not an SQLite database")
        }
        return header[18] == 2 ? .wal : .delete
    }
}
