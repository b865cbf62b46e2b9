import Foundation
import SQLiteStoreCore

/// Opens a database for `store watch` without ever writing to it: the file must exist and
/// be a database (see `DatabaseFile`), the store is read-only (`query_only` on every
/// connection, the journal mode left as it is), and the URI is `DatabaseFile.readOnlyURI`,
/// so that a watch leaves no `-wal` or `-shm` file that was not there once the store closes.
enum WatchDatabase {
    static func open(path: String) throws -> Store {
        let file = try DatabaseFile(path: path)
        guard file.exists else { throw DatabaseFile.unavailable(path, "does not exist") }
        var configuration = StoreConfiguration()
        configuration.isReadOnly = true
        configuration.readerCount = 1
        return try file.openStore(at: file.readOnlyURI(followsChanges: true), configuration: configuration)
    }
}
