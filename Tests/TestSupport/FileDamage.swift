import Foundation
import SQLiteStoreCore

/// What another program can do to the file of an open store, for the suites that check that
/// every observer learns of the store's failure.
public enum FileDamage: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Overwritten in place with bytes that are not a database, then seen by SQLite.
    case overwrittenWithGarbage
    /// Deleted (`rm`).
    case deleted
    /// Replaced by another file renamed over it (`mv new.sqlite app.sqlite`).
    case replacedByRename

    public var description: String { rawValue }

    /// The result code of the store's failure.
    public var code: ResultCode { self == .overwrittenWithGarbage ? .notADatabase : .readOnly }

    /// Whether `error` is the failure this damage causes.
    public func matches(_ error: StoreError?) -> Bool {
        guard let error else { return false }
        return self == .overwrittenWithGarbage ? error.code == .notADatabase : error.extendedCode == 1032  // SQLITE_READONLY_DBMOVED
    }

    /// Damages the database file at `path`.
    ///
    /// For garbage, another connection commits `touch` (an update that changes a row of a
    /// table of one page), checkpoints the WAL into the file, and once the file is overwritten
    /// commits `touch` again from its page cache. A connection's cache hides an overwritten file
    /// until the WAL header changes, as after that commit; SQLite then reads the file again and
    /// finds it is not a database. Keep the returned store (that other connection) until the end
    /// of the test: closing it could checkpoint.
    public func apply(to path: String, touch: String) throws -> Store? {
        switch self {
        case .overwrittenWithGarbage:
            var configuration = StoreConfiguration()
            configuration.readerCount = 0
            configuration.externalChangePollInterval = nil
            let other = try Store(path: path, configuration: configuration)
            try other.write { db in try db.execute(sql: touch) }
            try other.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try file.write(contentsOf: Data(repeating: 0x5A, count: 8192))
            try file.close()
            try other.write { db in try db.execute(sql: touch) }
            return other
        case .deleted:
            try FileManager.default.removeItem(atPath: path)
            return nil
        case .replacedByRename:
            let replacement = path + ".replacement"
            try Data("not the store's file".utf8).write(to: URL(fileURLWithPath: replacement))
            guard rename(replacement, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
            return nil
        }
    }
}
