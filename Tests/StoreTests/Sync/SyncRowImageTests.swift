import Foundation
import SQLiteStoreSyncProtocol
import TestSupport
import Testing

@_spi(Testing) @testable import SQLiteStoreCore
@_spi(Testing) @testable import SQLiteStoreSync

/// A new device keeps the rows of a snapshot whole (one stamp and an image of their values)
/// where it can; such rows must give back their values exactly, and record, merge, lose to a
/// delete and come back from one as rows kept in cells do.
@Suite("Sync rows kept whole")
struct SyncRowImageTests {
    @Test("An image gives back its columns and values bit for bit and byte for byte")
    func imageRoundTrip() throws {
        var random = SeededGenerator()
        let names = ["title", "r\u{E9}sum\u{E9}", "re\u{301}sume\u{301}", "", "a\u{0}b"]
        for _ in 0..<500 {
            let cells = (0..<Int.random(in: 0...6, using: &random)).map { _ in
                (column: names.randomElement(using: &random) ?? "", value: Self.randomValue(using: &random))
            }
            let decoded = try SyncRowImage(decoding: SyncRowImage(cells: cells).encoded)
            #expect(decoded.cells.map { Self.bytes(.text($0.column)) } == cells.map { Self.bytes(.text($0.column)) }, "seed \(random.seed)")
            #expect(decoded.cells.map { Self.bytes($0.value) } == cells.map { Self.bytes($0.value) }, "seed \(random.seed)")
        }
    }

    @Test("Bytes that are no image this store wrote are a corrupt error, or a shorter image where they end between two cells")
    func damagedImages() throws {
        let cells: [(column: String, value: DatabaseValue)] = [("a", .integer(7)), ("b", .text("text")), ("c", .blob(Data([1, 2])))]
        let encoded = SyncRowImage(cells: cells).encoded
        for length in 0..<encoded.count {
            do {
                let decoded = try SyncRowImage(decoding: encoded.prefix(length))
                #expect(decoded == SyncRowImage(cells: Array(cells.prefix(decoded.cells.count))), "a prefix of \(length) bytes")
                #expect(decoded.cells.count < cells.count)
            } catch let error as StoreError {
                #expect(error.code == .corrupt, "a prefix of \(length) bytes")
            }
        }
        for damaged in [Data([2]), Data([1, 9]), Data([1, 3, 0xFF, 0xFF, 0xFF, 0xFF]), Data([1, 1, 0, 0, 0, 0, 0, 0, 0, 0])] {
            #expect(throws: StoreError.self) { try SyncRowImage(decoding: damaged) }
        }
    }

    @Test("Rows a new device keeps whole record, merge, lose to a delete and come back from it as rows kept in cells do")
    func wholeRowsBehaveAsCells() throws {
        let devices = try TwoDevices()
        let rows = (0..<8).map { index in
            (
                key: "n\(index)",
                values: [
                    DatabaseValue.text("title \(index)"), .real(Double(index) / 3), .blob(Data([UInt8(index), 0])), .integer(Int64(index)),
                ]
            )
        }
        // The same notes reach one device as a snapshot page and the other as changes.
        try devices.whole.write { db in try db.syncCoordinator?.apply(TwoDevices.page(of: rows), in: db) }
        try devices.cells.sync.apply(TwoDevices.batch(of: rows))
        #expect(try devices.imagedRows(in: devices.whole) == rows.count)
        #expect(try devices.imagedRows(in: devices.cells) == 0)
        #expect(try TwoDevices.contents(of: devices.whole) == TwoDevices.contents(of: devices.cells))

        // The same local writes record the same changes on both.
        for store in [devices.whole, devices.cells] {
            try store.write { db in
                try db.execute(sql: "UPDATE notes SET title = 'edited' WHERE id = 'n1'")
                try db.execute(sql: "UPDATE notes SET score = score, data = data WHERE id = 'n2'")  // changes nothing
                try db.execute(sql: "DELETE FROM notes WHERE id = 'n3'")
                try db.execute(sql: "INSERT OR REPLACE INTO notes(id, title, score, data, n) VALUES ('n4', 'replaced', 0.25, NULL, 4)")
                try db.execute(sql: "UPDATE notes SET n = n + 100 WHERE id IN ('n5', 'n6')")
            }
        }
        let pending = try TwoDevices.pendingChanges(of: devices.whole)
        #expect(pending == (try TwoDevices.pendingChanges(of: devices.cells)))
        // n1's title, n3's delete, the four cells of n4 (a new row at a new rowid), n5's and n6's n.
        #expect(pending.count == 1 + 1 + 4 + 2, "\(pending)")

        // Remote changes: n3 comes back with a title later than its delete and the rest of its
        // values from before it; an older title of n7 loses; n0 is deleted and n2 edited.
        let later = (TwoDevices.now + 1_000) << 16  // a second after the local writes
        let remote = SyncBatch(
            schemaVersion: 0,
            changes: [
                TwoDevices.change(1, "n3", .set(column: "title", value: .text("revived")), at: later),
                TwoDevices.change(2, "n7", .set(column: "title", value: .text("older")), at: TwoDevices.hlc - 1),
                TwoDevices.change(3, "n0", .delete, at: later),
                TwoDevices.change(4, "n2", .set(column: "n", value: .integer(-2)), at: later),
            ])
        for store in [devices.whole, devices.cells] { try store.sync.apply(remote) }
        let contents = try TwoDevices.contents(of: devices.whole)
        #expect(contents == (try TwoDevices.contents(of: devices.cells)))
        let notes = try devices.whole.read { db in try db.fetchRows(sql: "SELECT id, title, score, data, n FROM notes").map(\.values) }
        #expect(notes.contains([.text("n3"), .text("revived"), .real(1), .blob(Data([3, 0])), .integer(3)]))
        #expect(notes.contains { $0[0] == .text("n7") && $0[1] == .text("title 7") })
        #expect(!notes.contains { $0[0] == .text("n0") })
        #expect(try devices.state(of: devices.whole) == devices.state(of: devices.cells))
    }

    @Test(
        "Rows kept whole that a statement over the whole table updates, then deletes (SQLite's truncation), record what rows kept in cells do"
    )
    func wholeTableStatements() throws {
        let devices = try TwoDevices()
        let rows = (0..<6).map { index in
            (key: "n\(index)", values: [DatabaseValue.text("t\(index)"), .real(0.5), .null, .integer(Int64(index))])
        }
        try devices.whole.write { db in try db.syncCoordinator?.apply(TwoDevices.page(of: rows), in: db) }
        try devices.cells.sync.apply(TwoDevices.batch(of: rows))
        for store in [devices.whole, devices.cells] {
            try store.write { db in try db.execute(sql: "UPDATE notes SET n = n * 2") }  // n0's n stays 0
            try store.write { db in try db.execute(sql: "DELETE FROM notes") }
        }
        let pending = try TwoDevices.pendingChanges(of: devices.whole)
        #expect(pending == (try TwoDevices.pendingChanges(of: devices.cells)))
        #expect(pending.count == 5 + 6, "\(pending)")
        #expect(try devices.imagedRows(in: devices.whole) == 0)
        #expect(try devices.state(of: devices.whole) == devices.state(of: devices.cells))
    }

    @Test("A write that reads a damaged image, or one whose device number is gone, fails with a corrupt error and writes nothing")
    func damagedImageInStore() throws {
        let rows = [(key: "n0", values: [DatabaseValue.text("a"), .real(1), .null, .integer(1)])]
        for damage in ["UPDATE store_sync_rows SET image = x'01ff'", "DELETE FROM store_sync_devices"] {
            let devices = try TwoDevices()
            try devices.whole.write { db in try db.syncCoordinator?.apply(TwoDevices.page(of: rows), in: db) }
            try devices.whole.write { db in try db.execute(sql: damage) }
            do {
                try devices.whole.write { db in try db.execute(sql: "UPDATE notes SET title = 'edited'") }
                Issue.record("\(damage): the write went through")
            } catch let error as StoreError {
                #expect(error.code == .corrupt, "\(damage): \(error)")
            }
            let title = try devices.whole.read { db in try db.fetchValue(String.self, sql: "SELECT title FROM notes") }
            #expect(title == "a", "\(damage)")
            #expect(try devices.whole.sync.pendingChanges().changes.isEmpty, "\(damage)")
        }
    }

    @Test("A table that gains a foreign key has its rows kept whole written out into cells, its links marked")
    func gainingALink() throws {
        let devices = try TwoDevices()
        let rows = [(key: "n1", values: [DatabaseValue.text("a"), .real(1), .null, .integer(1)])]
        try devices.whole.write { db in try db.syncCoordinator?.apply(TwoDevices.page(of: rows), in: db) }
        #expect(try devices.imagedRows(in: devices.whole) == 1)
        try devices.whole.close()
        let plain = try Store(path: devices.wholePath)
        try plain.write { db in
            try db.execute(sql: "CREATE TABLE folders(id TEXT PRIMARY KEY)")
            try db.execute(sql: "ALTER TABLE notes ADD COLUMN folder TEXT REFERENCES folders(id)")
        }
        try plain.close()
        let reopened = try Store(path: devices.wholePath, configuration: TwoDevices.configuration)
        #expect(try devices.imagedRows(in: reopened) == 0)
        let cells = try reopened.read { db in try db.fetchRows(sql: "SELECT col, link FROM store_sync_cells ORDER BY col").map(\.values) }
        #expect(cells == ["data", "n", "score", "title"].map { [.text($0), .integer(0)] })
    }

    /// Two devices syncing `notes`, one that receives notes as a new device's snapshot (kept
    /// whole) and one that receives them as changes (kept in cells), their clocks stopped at
    /// the same reading.
    struct TwoDevices {
        static let hlc: Int64 = 1_800_000_000_000 << 16
        /// The devices' clock, in milliseconds: after `hlc`.
        static let now: Int64 = 1_800_000_100_000
        static let configuration: StoreConfiguration = {
            var configuration = StoreConfiguration()
            var sync = SyncConfiguration(tables: ["notes"])
            sync.physicalClock = { now }
            configuration.sync = sync
            return configuration
        }()

        let directory: TemporaryDirectory
        let whole: Store
        let cells: Store
        var wholePath: String { directory.path("whole.sqlite") }

        init() throws {
            directory = try TemporaryDirectory()
            let open = { [directory] (name: String) in
                let path = directory.path(name)
                let plain = try Store(path: path)
                try plain.write { db in
                    try db.execute(sql: "CREATE TABLE notes(id TEXT PRIMARY KEY, title TEXT NOT NULL, score REAL, data BLOB, n INTEGER)")
                }
                try plain.close()
                return try Store(path: path, configuration: Self.configuration)
            }
            whole = try open("whole.sqlite")
            cells = try open("cells.sqlite")
        }

        static let columns = ["title", "score", "data", "n"]

        static func page(of rows: [(key: String, values: [DatabaseValue])]) -> SyncSnapshotPage {
            let stamp = SyncSnapshotStamp(hlc: hlc, device: 0)
            return SyncSnapshotPage(
                schemaVersion: 0, cursor: 1, devices: ["0a-remote"],
                rows: rows.map { row in
                    SyncSnapshotRow(
                        table: "notes", key: .text(row.key), deleted: nil,
                        cells: zip(columns, row.values).map { SyncSnapshotCell(column: $0, value: $1.wireValue, stamp: stamp) })
                }, next: nil)
        }

        static func batch(of rows: [(key: String, values: [DatabaseValue])]) -> SyncBatch {
            let changes = rows.enumerated().flatMap { index, row in
                zip(columns, row.values).enumerated().map { offset, cell in
                    change(Int64(index * columns.count + offset + 1), row.key, .set(column: cell.0, value: cell.1), at: hlc)
                }
            }
            return SyncBatch(schemaVersion: 0, changes: changes)
        }

        static func change(_ sequence: Int64, _ key: String, _ operation: SyncChange.Operation, at hlc: Int64) -> SyncChange {
            SyncChange(
                id: SyncChange.ID(device: "0a-remote", sequence: sequence), table: "notes", key: .text(key), operation: operation,
                timestamp: HybridTimestamp(rawValue: hlc))
        }

        func imagedRows(in store: Store) throws -> Int {
            try store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM store_sync_rows WHERE image IS NOT NULL") } ?? -1
        }

        /// Each note as its values' storage classes and bytes, in key order.
        static func contents(of store: Store) throws -> [[String]] {
            try store.read { db in
                let columns = (["id"] + Self.columns).map { "typeof(\($0)) || ':' || hex(\($0))" }.joined(separator: ", ")
                return try db.fetchRows(sql: "SELECT \(columns) FROM notes ORDER BY id").map { $0.values.map { $0.stringValue ?? "" } }
            }
        }

        /// The outbox without its sequences and device: what each change sets.
        static func pendingChanges(of store: Store) throws -> [String] {
            try store.sync.pendingChanges(limit: 100).changes.map { change in
                "\(change.key) \(change.operation) \(change.timestamp.rawValue)"
            }
        }

        /// Every cell and tombstone by storage class and bytes, this device's id spelled `here`,
        /// the rows kept whole written out into cells first.
        func state(of store: Store) throws -> [[String]] {
            try store.sync.expandRowImages()
            let device = try store.sync.deviceID()
            return try store.read { db in
                try db.fetchRows(
                    sql: """
                        SELECT tbl, hex(pk), col, typeof(value) || ':' || hex(value), clock, replace(device, ?1, 'here')
                        FROM store_sync_cells
                        UNION ALL
                        SELECT tbl, hex(pk), 'deleted', '', deleted_clock, replace(deleted_device, ?1, 'here')
                        FROM store_sync_rows WHERE deleted_clock IS NOT NULL
                        ORDER BY 1, 2, 3
                        """, arguments: [device]
                ).map { $0.values.map(\.description) }
            }
        }
    }

    /// A value of every storage class, from the awkward ones (-0.0, the extremes, NUL inside a
    /// text, canonically equivalent spellings, empty texts and blobs) and random ones.
    static func randomValue(using random: inout SeededGenerator) -> DatabaseValue {
        let awkward: [DatabaseValue] = [
            .null, .integer(.min), .integer(.max), .real(-0.0), .real(.infinity), .real(-.infinity), .real(.leastNonzeroMagnitude),
            .real(0.1), .text(""), .text("\u{E9}"), .text("e\u{301}"), .text("a\u{0}b"), .blob(Data()), .blob(Data([0, 255])),
        ]
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return awkward.randomElement(using: &random) ?? .null
        case 1: return .integer(Int64.random(in: .min ... .max, using: &random))
        case 2:
            let real = Double(bitPattern: random.next())
            return real.isNaN ? .real(1) : .real(real)
        case 3:
            let scalars = (0..<Int.random(in: 0...12, using: &random)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: 0...0x1_0FFF, using: &random))
            }
            return .text(String(String.UnicodeScalarView(scalars)))
        default: return .blob(Data((0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }))
        }
    }

    /// A value as its storage class and bytes: equal only when stored alike.
    static func bytes(_ value: DatabaseValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let integer): "integer:\(integer)"
        case .real(let real): "real:\(real.bitPattern)"
        case .text(let text): "text:\(Array(text.utf8))"
        case .blob(let blob): "blob:\(Array(blob))"
        }
    }
}
