import Foundation
import TestSupport

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// Synced stores on files in one temporary directory, sharing a schema of lists, their items
/// (`ON DELETE CASCADE`), tags on items (`ON DELETE SET NULL`, by a `NUMERIC` column, which
/// holds an item key that spells a number, "7", as the number 7) and notes that refer to notes,
/// themselves included (a parent, `ON DELETE CASCADE`, and a note to see also, `SET NULL`), so
/// that parent loops can form; and a settable clock each.
/// A list's name compares by `NOCASE`: renaming "a" to "A" is an edit all the same.
final class SyncFixture {
    static let schema = """
        CREATE TABLE lists(id TEXT PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE, color INTEGER);
        CREATE TABLE items(
            id TEXT PRIMARY KEY, list_id TEXT NOT NULL REFERENCES lists(id) ON DELETE CASCADE,
            title TEXT, done INTEGER NOT NULL DEFAULT 0, score REAL);
        CREATE TABLE tags(id TEXT PRIMARY KEY, item_id NUMERIC REFERENCES items(id) ON DELETE SET NULL, label TEXT);
        CREATE TABLE notes(
            id TEXT PRIMARY KEY, parent_id TEXT REFERENCES notes(id) ON DELETE CASCADE,
            see_also TEXT REFERENCES notes(id) ON DELETE SET NULL, body TEXT);
        """
    static let tables: [String] = ["lists", "items", "tags", "notes"]

    /// A device's physical clock, set by the test, read by the store inside its writes.
    final class Clock: Sendable {
        private let milliseconds = Locked<Int64>(1_800_000_000_000)
        var now: Int64 {
            get { milliseconds.withLock { $0 } }
            set { milliseconds.withLock { $0 = newValue } }
        }
    }

    let directory: TemporaryDirectory
    let clocks: [Clock]
    let source: ChangeCapture.Source
    /// The schema each store is created with, and the tables that sync.
    let schema: String
    let tables: [String]

    init(
        stores count: Int, source: ChangeCapture.Source = .best, schema: String = SyncFixture.schema,
        tables: [String] = SyncFixture.tables
    ) throws {
        directory = try TemporaryDirectory()
        clocks = (0..<count).map { _ in Clock() }
        self.source = source
        self.schema = schema
        self.tables = tables
    }

    func configuration(_ index: Int) -> StoreConfiguration {
        var configuration = StoreConfiguration()
        var sync = SyncConfiguration(tables: Set(tables))
        let clock = clocks[index]
        sync.physicalClock = { clock.now }
        configuration.sync = sync
        configuration.changeCaptureSource = source
        return configuration
    }

    /// Opens store `index`, creating its schema on first open.
    func open(_ index: Int) throws -> Store {
        let path = directory.path("device\(index).sqlite")
        let isNew = !FileManager.default.fileExists(atPath: path)
        if isNew {
            let plain = try Store(path: path)
            try plain.write { db in try db.execute(script: schema) }
            try plain.close()
        }
        return try Store(path: path, configuration: configuration(index))
    }

    /// Every synced table's rows in key order, each value as its storage class and bytes
    /// (`text:436166C3A9`): equal only when stored byte for byte alike, which `==` on
    /// strings is not (it finds "é" and "e\u{301}" equal).
    static func contents(of store: Store, tables: [String] = SyncFixture.tables) throws -> [String: [[String]]] {
        try store.read { db in
            var contents: [String: [[String]]] = [:]
            for table in tables {
                let columns = try db.fetchRows(sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table])
                let bytes = columns.map { column in
                    let name = SQLIdentifier.quote(column[0].stringValue ?? "")
                    return "typeof(\(name)) || ':' || hex(\(name))"
                }
                let rows = try db.fetchRows(sql: "SELECT \(bytes.joined(separator: ", ")) FROM \(table) ORDER BY id")
                contents[table] = rows.map { row in row.values.map { $0.stringValue ?? "" } }
            }
            return contents
        }
    }

    /// The rows of one table, as `[column: value]`, by key.
    static func rows(of table: String, in store: Store) throws -> [TextKey: [String: DatabaseValue]] {
        var rows: [TextKey: [String: DatabaseValue]] = [:]
        for row in try store.read({ db in try db.fetchRows(sql: "SELECT * FROM \(table) ORDER BY id") }) {
            guard case .text(let key) = row[0] else { continue }
            rows[TextKey(key)] = Dictionary(uniqueKeysWithValues: zip(row.columnNames, row.values))
        }
        return rows
    }

    /// Sends everything `from` has pending to `to`, and acknowledges it.
    static func exchange(from: Store, to: Store) throws {
        let batch = try from.sync.pendingChanges(limit: 100_000)
        try to.sync.apply(batch)
        if let last = batch.lastID { try from.sync.acknowledge(upTo: last) }
    }
}

/// A text key told apart by its bytes, as SQLite and the sync tables tell keys apart: `String`'s
/// `==` would take canonically equivalent keys ("\u{E9}" and "e\u{301}") for one row.
struct TextKey: Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    let bytes: [UInt8]

    init(_ text: String) { bytes = Array(text.utf8) }
    init(stringLiteral text: String) { self.init(text) }

    var description: String { String(decoding: bytes, as: UTF8.self) }
}
