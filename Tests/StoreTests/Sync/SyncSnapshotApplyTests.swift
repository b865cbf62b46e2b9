import Foundation
import SQLiteStoreSyncProtocol
import TestSupport
import Testing

@_spi(Testing) @testable import SQLiteStoreCore
@_spi(Testing) @testable import SQLiteStoreSync

/// Snapshot pages applied by a store give what the changes they sum up give, without a server:
/// random changes (text keys whose byte order is not their case-insensitive order, keys that
/// are canonically equivalent texts of different bytes, cells and deletes from three devices,
/// parents that never come) are turned into snapshot pages as the server makes them (some rows
/// naming their table in upper case), with spoiled pages (a table or a column the store does
/// not sync, or a column in upper case, named in the middle of a page: held) between them; a fresh store, a store that held half of the changes before and a store that
/// applied all the changes as a batch hold the same tables and sync state, byte for byte.
@Suite("Sync snapshots applied by a store")
struct SyncSnapshotApplyTests {
    static let devices = ["0a-device", "0b-device", "1a-device"]

    @Test("Snapshot pages give fresh stores and one with half the history what the changes give, byte for byte")
    func snapshotMatchesChanges() throws {
        var random = SeededGenerator()
        let seed = random.seed
        let changes = Self.randomChanges(count: 300, using: &random)
        let fixture = try SyncFixture(stores: 4)
        let (fresh, half, replayed, clean) = (try fixture.open(0), try fixture.open(1), try fixture.open(2), try fixture.open(3))
        try replayed.sync.apply(SyncBatch(schemaVersion: 0, changes: changes.shuffled(using: &random)))
        try half.sync.apply(SyncBatch(schemaVersion: 0, changes: changes.filter { _ in Bool.random(using: &random) }))
        let pages = Self.pages(of: changes, using: &random)
        var refused = 0
        // `clean` gets no spoiled page: a spoiled page's rows arrive as cells, not kept whole.
        for store in [fresh, half, clean] {
            let refusedBefore = refused
            let configuration = try #require(store.configuration.sync)
            let tables = try store.read { db in try SyncCoordinator.syncedTables(of: configuration, in: db) }
            for page in pages {
                // A page with a cell this store cannot take is applied but for that cell, which
                // is held; the page itself then changes nothing more. Each store gets its first
                // page that can be spoiled so, then one in three.
                if store !== clean, let bad = Self.refusedCopy(of: page, always: refused == refusedBefore, using: &random) {
                    let heldBefore = try store.sync.heldChanges().count
                    try store.write { db in try db.syncCoordinator?.apply(bad, in: db) }
                    #expect(try store.sync.heldChanges().count > heldBefore, "seed \(seed): the spoiled row's cells are held")
                    refused += 1
                }
                // Half the pages come staged ahead, as a client stages a page while the one before is written.
                let staged = Bool.random(using: &random) ? try SyncSnapshotStaging(page, tables: tables, imaging: true) : nil
                try store.write { db in try db.syncCoordinator?.apply(page, stagedAhead: staged, in: db) }
            }
        }
        #expect(refused > 0, "seed \(seed)")
        // The clean store kept rows whole (those of a device's insert), which the comparison reads through.
        let imaged = try clean.read { db in
            try db.fetchValue(Int.self, sql: "SELECT count(*) FROM store_sync_rows WHERE image IS NOT NULL")
        }
        #expect((imaged ?? 0) > 0, "seed \(seed)")
        let expected = try Self.state(of: replayed)
        #expect(try SyncFixture.contents(of: replayed).values.contains { !$0.isEmpty }, "seed \(seed)")
        for (name, store) in [("fresh", fresh), ("half", half), ("clean", clean)] {
            #expect(try SyncFixture.contents(of: store) == SyncFixture.contents(of: replayed), "\(name), seed \(seed)")
            #expect(try Self.state(of: store) == expected, "\(name), seed \(seed)")
        }
    }

    @Test("A snapshot row whose key a row sync never recorded holds takes that row over, with its rowid recorded")
    func rowSyncNeverRecorded() throws {
        let fixture = try SyncFixture(stores: 1)
        let path = fixture.directory.path("device0.sqlite")
        let plain = try Store(path: path)
        try plain.write { db in
            try db.execute(script: SyncFixture.schema)
            try db.execute(sql: "INSERT INTO lists(id, name, color) VALUES ('l1', 'before sync', 1)")
        }
        try plain.close()
        let store = try fixture.open(0)
        let page = Self.listsPage(["l0", "l1", "l2"])
        try store.write { db in try db.syncCoordinator?.apply(page, in: db) }
        let lists = try store.read { db in try db.fetchRows(sql: "SELECT id, name, color, rowid FROM lists ORDER BY id").map(\.values) }
        #expect(lists.map { Array($0.prefix(3)) } == ["l0", "l1", "l2"].map { [.text($0), .text("name of \($0)"), .integer(7)] })
        #expect(lists.first { $0[0] == .text("l1") }?[3] == .integer(1), "the row sync never recorded was not kept in place")
        #expect(try Self.state(of: store).rowIDsMatch)
    }

    @Test(
        "A row kept whole takes its rowid from an entry that still names it, above the table's largest rowid or, at Int64.max, where SQLite puts it"
    )
    func imagedRowTakesRowIDFromStaleEntry() throws {
        let fixture = try SyncFixture(stores: 2)
        let (stale, full) = (try fixture.open(0), try fixture.open(1))
        let page = Self.listsPage(["m1", "m2"])
        try stale.write { db in
            try db.execute(sql: "INSERT INTO lists(id, name, color) VALUES ('l1', 'local', 1)")
            // An entry left naming the rowid SQLite gives next, as one whose row went without sync seeing it would.
            try db.execute(sql: "INSERT INTO store_sync_rows(tbl, pk, rid) VALUES ('lists', 'gone', 2)")
        }
        try full.write { db in
            try db.execute(sql: "INSERT INTO lists(rowid, id, name, color) VALUES (9223372036854775807, 'l1', 'local', 1)")
        }
        for store in [stale, full] {
            try store.write { db in try db.syncCoordinator?.apply(page, in: db) }
            let kept = try store.read { db in
                try db.fetchValue(Int.self, sql: "SELECT count(*) FROM store_sync_rows WHERE image IS NOT NULL AND rid IS NOT NULL")
            }
            #expect(kept == 2, "the page's rows were not kept whole with their rowids")
            #expect(try Self.state(of: store).rowIDsMatch)
        }
        let gone = try stale.read { db in try db.fetchRows(sql: "SELECT rid FROM store_sync_rows WHERE pk = 'gone'").map { $0[0] } }
        #expect(gone == [.null])
    }

    @Test("A page staged ahead for the synced tables as they were is staged again by the write that finds them changed")
    func stagingForChangedTablesIsMadeAgain() throws {
        let fixture = try SyncFixture(stores: 2)
        let (ahead, inWrite) = (try fixture.open(0), try fixture.open(1))
        let configuration = try #require(ahead.configuration.sync)
        let tablesBefore = try ahead.read { db in try SyncCoordinator.syncedTables(of: configuration, in: db) }
        let page = Self.listsPage(["m1", "m2"])
        let staged = try SyncSnapshotStaging(page, tables: tablesBefore, imaging: true)
        #expect(!staged.images.isEmpty, "the page's rows were not staged to be kept whole")
        // The same columns in another order: values staged by the order before would land in each other's column.
        for store in [ahead, inWrite] {
            try store.write { db in
                try db.execute(
                    script: """
                        CREATE TABLE lists_reordered(id TEXT PRIMARY KEY, color INTEGER, name TEXT NOT NULL COLLATE NOCASE);
                        DROP TABLE lists;
                        ALTER TABLE lists_reordered RENAME TO lists;
                        """)
            }
        }
        try ahead.write { db in try db.syncCoordinator?.apply(page, stagedAhead: staged, in: db) }
        try inWrite.write { db in try db.syncCoordinator?.apply(page, in: db) }
        let lists = try ahead.read { db in try db.fetchRows(sql: "SELECT id, name, color FROM lists ORDER BY id").map(\.values) }
        #expect(lists == ["m1", "m2"].map { [.text($0), .text("name of \($0)"), .integer(7)] })
        #expect(try SyncFixture.contents(of: ahead) == SyncFixture.contents(of: inWrite))
        #expect(try Self.state(of: ahead) == Self.state(of: inWrite))
    }

    @Test("A page giving a row or a column of a row twice keeps the cells with the greater stamps, in a new store and one holding the row")
    func repeatedRowAndColumn() throws {
        let fixture = try SyncFixture(stores: 2)
        let (new, holding) = (try fixture.open(0), try fixture.open(1))
        let hlc: Int64 = 1_800_000_000_000 << 16
        func row(_ cells: [(String, SyncWireValue, Int64)]) -> SyncSnapshotRow {
            SyncSnapshotRow(
                table: "lists", key: .text("l1"), deleted: nil,
                cells: cells.map { SyncSnapshotCell(column: $0, value: $1, stamp: SyncSnapshotStamp(hlc: hlc + $2, device: 0)) })
        }
        func page(_ rows: [SyncSnapshotRow]) -> SyncSnapshotPage {
            SyncSnapshotPage(schemaVersion: 0, cursor: 1, devices: ["0a-device"], rows: rows, next: nil)
        }
        try holding.write { db in
            try db.syncCoordinator?.apply(page([row([("name", .text("before"), 0), ("color", .integer(1), 0)])]), in: db)
        }
        let repeated = page([
            row([("name", .text("late"), 2), ("name", .text("early"), 1), ("color", .integer(7), 1)]), row([("color", .integer(8), 2)]),
        ])
        for store in [new, holding] {
            try store.write { db in try db.syncCoordinator?.apply(repeated, in: db) }
            let lists = try store.read { db in try db.fetchRows(sql: "SELECT id, name, color FROM lists").map(\.values) }
            #expect(lists == [[.text("l1"), .text("late"), .integer(8)]])
        }
    }

    @Test("A page's or a batch's cell naming a column in the other normalization of its name is held, the rest applied")
    func columnInOtherNormalization() throws {
        let directory = try TemporaryDirectory()
        // The column is named in NFC; the held cells name it in NFD: canonically equivalent
        // (String's `==` finds them equal), different bytes (SQLite does not).
        let cards = try OneSyncedTable("cards", columns: "\"r\u{E9}sum\u{E9}\" TEXT", in: directory)
        try cards.apply(cards.page([("cards", "r\u{E9}sum\u{E9}"), ("cards", "re\u{301}sume\u{301}")]))
        #expect(try cards.stored() == [[.integer(1), .integer(1)]], "row c0 applied, c1's cell held")
        #expect(try cards.store.sync.heldChanges().map(\.change.key) == [.text("c1")])
        try cards.store.sync.apply(cards.batch(table: "cards", column: "re\u{301}sume\u{301}"))
        #expect(try cards.store.sync.heldChanges().map(\.error.code) == [.mismatch, .mismatch])
        #expect(try cards.stored() == [[.integer(1), .integer(1)]])
        try cards.apply(cards.page([("cards", "r\u{E9}sum\u{E9}"), ("cards", "r\u{E9}sum\u{E9}")]))
        #expect(try cards.stored() == [[.integer(2), .integer(2)]])
    }

    @Test("A page's or a batch's cell naming a synced table in the other normalization of its name is held; in other ASCII case, taken")
    func tableInOtherNormalization() throws {
        let directory = try TemporaryDirectory()
        let cafes = try OneSyncedTable("caf\u{E9}s", columns: "name TEXT", in: directory)
        try cafes.apply(cafes.page([("cafe\u{301}s", "name")]))
        try cafes.store.sync.apply(cafes.batch(table: "cafe\u{301}s", column: "name"))
        #expect(try cafes.store.sync.heldChanges().map(\.error.code) == [.mismatch, .mismatch])
        #expect(try cafes.stored() == [[.integer(0), .integer(0)]])
        try cafes.apply(cafes.page([("CAF\u{E9}S", "name")]))
        try cafes.store.sync.apply(cafes.batch(table: "caf\u{E9}s", column: "name"))
        #expect(try cafes.stored() == [[.integer(2), .integer(2)]])
    }

    /// A store syncing one table, with pages and batches of one-cell rows that name it (or
    /// their own spelling of it and of its columns).
    struct OneSyncedTable {
        let store: Store
        let table: String
        private let hlc: Int64 = 1_800_000_000_000 << 16

        /// A store over a new file in `directory` syncing `table`, keyed by a text `id`, with `columns`.
        init(_ table: String, columns: String, in directory: TemporaryDirectory) throws {
            let path = directory.path("device.sqlite")
            let plain = try Store(path: path)
            try plain.write { db in try db.execute(sql: "CREATE TABLE \"\(table)\"(id TEXT PRIMARY KEY, \(columns))") }
            try plain.close()
            var configuration = StoreConfiguration()
            configuration.sync = SyncConfiguration(tables: [table])
            store = try Store(path: path, configuration: configuration)
            self.table = table
        }

        /// A page whose row `i` (keyed `"c<i>"`) has one cell, in `cells[i]`'s table and column.
        func page(_ cells: [(table: String, column: String)]) -> SyncSnapshotPage {
            let rows = cells.enumerated().map { index, cell in
                SyncSnapshotRow(
                    table: cell.table, key: .text("c\(index)"), deleted: nil,
                    cells: [SyncSnapshotCell(column: cell.column, value: .text("text"), stamp: SyncSnapshotStamp(hlc: hlc, device: 0))])
            }
            return SyncSnapshotPage(schemaVersion: 0, cursor: 1, devices: ["0a-device"], rows: rows, next: nil)
        }

        /// A batch setting `column` of the row keyed `"c9"` in `table`.
        func batch(table: String, column: String) -> SyncBatch {
            let change = SyncChange(
                id: SyncChange.ID(device: "0a-device", sequence: 1), table: table, key: .text("c9"),
                operation: .set(column: column, value: .text("text")), timestamp: HybridTimestamp(rawValue: hlc))
            return SyncBatch(schemaVersion: 0, changes: [change])
        }

        /// Applies `page` as a new device's snapshot page.
        func apply(_ page: SyncSnapshotPage) throws {
            try store.write { db in try db.syncCoordinator?.apply(page, in: db) }
        }

        /// How many rows the table holds and how many cells the sync state.
        func stored() throws -> [[DatabaseValue]] {
            try store.sync.expandRowImages()
            return try store.read { db in
                try db.fetchRows(sql: "SELECT (SELECT count(*) FROM \"\(table)\"), (SELECT count(*) FROM store_sync_cells)").map(\.values)
            }
        }
    }

    /// The sync state that must be equal: every cell, every tombstone, and whether each synced
    /// row's rowid is recorded for its key and no other rowid is.
    struct State: Equatable {
        var cells: [[String]]
        var tombstones: [[String]]
        var rowIDsMatch: Bool
    }

    /// A page of `lists` rows with the given keys, each named "name of" its key and of color 7,
    /// every cell of one stamp, the columns in the order of their names' bytes (as a server sends them).
    static func listsPage(_ keys: [String]) -> SyncSnapshotPage {
        let stamp = SyncSnapshotStamp(hlc: 1_800_000_000_000 << 16, device: 0)
        let rows = keys.map { key in
            SyncSnapshotRow(
                table: "lists", key: .text(key), deleted: nil,
                cells: [
                    SyncSnapshotCell(column: "color", value: .integer(7), stamp: stamp),
                    SyncSnapshotCell(column: "name", value: .text("name of \(key)"), stamp: stamp),
                ])
        }
        return SyncSnapshotPage(schemaVersion: 0, cursor: 1, devices: ["0a-device"], rows: rows, next: nil)
    }

    /// The state with every row kept whole written out into cells (which changes no meaning).
    static func state(of store: Store) throws -> State {
        try store.sync.expandRowImages()
        return try store.read { db in
            let text = { (sql: String) in try db.fetchRows(sql: sql).map { row in row.values.map(\.description) } }
            var rowIDsMatch = true
            for table in SyncFixture.tables {
                let counts = try db.fetchRows(
                    sql: """
                        SELECT (SELECT count(*) FROM \(table)),
                            (SELECT count(*) FROM \(table) t JOIN store_sync_rows r ON r.tbl = ?1 AND r.pk = t.id AND r.rid = t.rowid),
                            (SELECT count(*) FROM store_sync_rows WHERE tbl = ?1 AND rid IS NOT NULL)
                        """, arguments: [table])
                rowIDsMatch = rowIDsMatch && Set(counts[0].values).count == 1
            }
            return State(
                // Keys and values as bytes: Swift's `==` on texts equates canonically equivalent ones.
                cells: try text(
                    """
                    SELECT tbl, hex(pk), col, typeof(value) || ':' || hex(value), clock, device FROM store_sync_cells
                    ORDER BY tbl, pk, col
                    """),
                tombstones: try text(
                    """
                    SELECT tbl, hex(pk), deleted_clock, deleted_device FROM store_sync_rows
                    WHERE deleted_clock IS NOT NULL ORDER BY tbl, pk
                    """),
                rowIDsMatch: rowIDsMatch)
        }
    }

    /// `count` random cells and deletes of lists, items and tags, each from one of three devices
    /// at a clock reading it used for nothing else (two writes of one cell never tie).
    static func randomChanges(count: Int, using random: inout SeededGenerator) -> [SyncChange] {
        let base: Int64 = 1_800_000_000_000 << 16
        // Always one pair of canonically equivalent keys of different bytes besides the random
        // ones (which made such a pair in about a third of the seeds): String's `==` takes them for one.
        // And a key that spells a number.
        let digit = Int.random(in: 0..<5, using: &random)
        let keys =
            (0..<10).map { index in pick(["a", "B", "\u{E9}", "e\u{301}", "z", "Z"], &random) + "\(index % 5)" }
            + ["\u{E9}\(digit)", "e\u{301}\(digit)", "\(digit)"]
        let value = { (column: String, random: inout SeededGenerator) -> DatabaseValue in
            switch column {
            case "name", "title", "label": .text(pick(["x", "Y", "ß"], &random) + "\(Int.random(in: 0..<9, using: &random))")
            case "list_id": .text(pick(keys, &random))
            // A tag's NUMERIC item_id holds the key "3" as the number 3, which SQLite matches with the item.
            case "item_id": Bool.random(using: &random) ? .integer(Int64(digit)) : .text(pick(keys, &random))
            case "score": .real(Double(Int.random(in: -8..<8, using: &random)) / 4)
            default: .integer(Int64.random(in: -3..<3, using: &random))
            }
        }
        let columns: [(table: String, columns: [String])] = [
            ("lists", ["name", "color"]), ("lists", ["name", "color"]), ("items", ["list_id", "title", "done", "score"]),
            ("tags", ["item_id", "label"]),
        ]
        var used: Set<[Int64]> = []
        var sequences = [Int64](repeating: 0, count: devices.count)
        var changes: [SyncChange] = []
        while changes.count < count {
            let device = Int.random(in: 0..<devices.count, using: &random)
            // One in six a delete, one in six an insert on a device: a cell of every column with
            // one stamp (a row a new device can keep whole), of a new key half the time; else a cell.
            let kind = Int.random(in: 0..<6, using: &random)
            let clock = Int64.random(in: 0..<400, using: &random)
            guard used.insert([clock, Int64(device)]).inserted else { continue }
            let (table, names) = pick(columns, &random)
            let key = DatabaseValue.text(kind == 1 && Bool.random(using: &random) ? "new\(changes.count)" : pick(keys, &random))
            let operations: [SyncChange.Operation] =
                switch kind {
                case 0: [.delete]
                case 1: names.map { .set(column: $0, value: value($0, &random)) }
                default: [pick(names, &random)].map { .set(column: $0, value: value($0, &random)) }
                }
            for operation in operations {
                sequences[device] += 1
                changes.append(
                    SyncChange(
                        id: SyncChange.ID(device: devices[device], sequence: sequences[device]), table: table, key: key,
                        operation: operation, timestamp: HybridTimestamp(rawValue: base + clock)))
            }
        }
        return changes
    }

    static func pick<Element>(_ elements: [Element], _ random: inout SeededGenerator) -> Element {
        elements[Int.random(in: 0..<elements.count, using: &random)]
    }

    /// The snapshot of `changes` as the server pages it: rows in (table, key) byte order, each
    /// column's latest write and the latest delete, in pages of one to nine rows.
    static func pages(of changes: [SyncChange], using random: inout SeededGenerator) -> [SyncSnapshotPage] {
        func newer(_ a: SyncSnapshotStamp, than b: SyncSnapshotStamp?) -> Bool {
            guard let b else { return true }
            return a.hlc != b.hlc ? a.hlc > b.hlc : Array(devices[b.device].utf8).lexicographicallyPrecedes(Array(devices[a.device].utf8))
        }
        // Rows by their table's and key's bytes, as the server tells them apart.
        var rows: [[[UInt8]]: SyncSnapshotRow] = [:]
        for change in changes {
            guard case .text(let key) = change.key, let device = devices.firstIndex(of: change.id.device) else { continue }
            let stamp = SyncSnapshotStamp(hlc: change.timestamp.rawValue, device: device)
            let id = [Array(change.table.utf8), Array(key.utf8)]
            var row = rows[id] ?? SyncSnapshotRow(table: change.table, key: .text(key), deleted: nil, cells: [])
            switch change.operation {
            case .delete:
                if newer(stamp, than: row.deleted) { row.deleted = stamp }
            case .set(let column, let value):
                let cell = SyncSnapshotCell(column: column, value: value.wireValue, stamp: stamp)
                if let index = row.cells.firstIndex(where: { $0.column == column }) {
                    if newer(stamp, than: row.cells[index].stamp) { row.cells[index] = cell }
                } else {
                    row.cells.append(cell)
                }
            }
            rows[id] = row
        }
        var ordered = rows.sorted { a, b in (a.key[0] + [0] + a.key[1]).lexicographicallyPrecedes(b.key[0] + [0] + b.key[1]) }
            .map(\.value)
        var pages: [SyncSnapshotPage] = []
        while !ordered.isEmpty {
            var rows = Array(ordered.prefix(Int.random(in: 1...9, using: &random)))
            ordered.removeFirst(rows.count)
            // A table named in other ASCII case is the same table, to SQLite and to a store.
            for index in rows.indices where Int.random(in: 0..<4, using: &random) == 0 {
                rows[index].table = rows[index].table.uppercased()
            }
            let next = ordered.isEmpty ? nil : rows.last.map { SyncSnapshotPosition(table: $0.table, key: "\($0.key)") }
            pages.append(SyncSnapshotPage(schemaVersion: 0, cursor: 1, devices: devices, rows: rows, next: next))
        }
        return pages
    }

    /// One time in three (`always` when asked), `page` with one row, not the first, naming a
    /// table or a column the store does not sync (a synced column in upper case among them);
    /// `nil` otherwise, and always for a page of one row.
    static func refusedCopy(of page: SyncSnapshotPage, always: Bool = false, using random: inout SeededGenerator) -> SyncSnapshotPage? {
        guard page.rows.count > 1, always || Int.random(in: 0..<3, using: &random) == 0 else { return nil }
        var rows = page.rows
        let index = Int.random(in: 1..<rows.count, using: &random)
        if rows[index].cells.isEmpty || Bool.random(using: &random) {
            rows[index].table = "unsynced"
        } else {
            // Columns are named exactly: another ASCII case names no synced column.
            rows[index].cells[0].column = pick(["no_such_column", rows[index].cells[0].column.uppercased()], &random)
        }
        return SyncSnapshotPage(schemaVersion: page.schemaVersion, cursor: page.cursor, devices: page.devices, rows: rows, next: page.next)
    }
}
