import Foundation
import SQLiteStoreCore
import SQLiteStoreMacros
import Testing

/// A `Codable` enum with associated values: stored as JSON text.
enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case label(String)
}

/// `Everything`, declared with the macro: the same table, read and written by column index.
@StoreModel(table: "everything")
struct MacroEverything {
    var id: Int64?
    var flag: Bool
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var double: Double
    var float: Float
    var text: String
    var data: Data
    var date: Date
    var uuid: UUID
    var optionalText: String?
    var optionalInt: Int64?
    var priority: Priority
    var tags: [String]
    var nested: Nested?
}

extension MacroEverything {
    init(_ model: Everything) {
        self.init(
            id: model.id, flag: model.flag, int: model.int, int8: model.int8, int16: model.int16, int32: model.int32,
            int64: model.int64, uint: model.uint, uint8: model.uint8, uint16: model.uint16, uint32: model.uint32,
            uint64: model.uint64, double: model.double, float: model.float, text: model.text, data: model.data,
            date: model.date, uuid: model.uuid, optionalText: model.optionalText, optionalInt: model.optionalInt,
            priority: model.priority, tags: model.tags, nested: model.nested)
    }

    var everything: Everything {
        Everything(
            id: id, flag: flag, int: int, int8: int8, int16: int16, int32: int32, int64: int64, uint: uint,
            uint8: uint8, uint16: uint16, uint32: uint32, uint64: uint64, double: double, float: float, text: text,
            data: data, date: date, uuid: uuid, optionalText: optionalText, optionalInt: optionalInt,
            priority: priority, tags: tags, nested: nested)
    }
}

/// Optional and enum columns the `Everything` table lacks, with a UUID key.
@StoreModel
struct Extras: Equatable {
    var id: UUID
    var mood: Mood
    var maybeMood: Mood?
    var maybePriority: Priority?
    var shape: Shape
    var maybeShape: Shape?
    var maybeDate: Date?
    var maybeUUID: UUID?
    var maybeData: Data?
    var maybeDouble: Double?
    var maybeFlag: Bool?
    var counts: [String: Int]

    static let schema = """
        CREATE TABLE extras(
            id TEXT PRIMARY KEY NOT NULL, mood TEXT NOT NULL, maybeMood TEXT, maybePriority INTEGER,
            shape TEXT NOT NULL, maybeShape TEXT, maybeDate REAL, maybeUUID TEXT, maybeData BLOB,
            maybeDouble REAL, maybeFlag INTEGER, counts TEXT NOT NULL
        );
        """
}

/// The model round trip, through `@StoreModel`'s by-index code, and across the two paths.
@Suite("Model round trip through @StoreModel")
struct ModelMacroRoundTripTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Everything.schema + Extras.schema)
    }

    @Test("10,000 rows of every type survive insert and fetch exactly, by column index")
    func tenThousandRows() async throws {
        var factory = EverythingFactory(generator: SeededGenerator())
        let seed = factory.generator.seed
        let originals = factory.make(count: 10_000).map(MacroEverything.init)
        let inserted = try await store.write { db in
            try originals.map { model in
                var model = model
                try db.insert(&model)
                return model
            }
        }
        #expect(inserted.map(\.id) == (1...10_000).map { Int64($0) })
        let fetched = try await store.read { db in try db.fetch(StoreRequest<MacroEverything>()) }
        try #require(fetched.count == inserted.count)
        expectSame(inserted.map(\.everything), fetched.map(\.everything), seed: seed)
    }

    @Test("Rows written through Codable read back through the macro, and the other way round")
    func pathsAgree() async throws {
        var factory = EverythingFactory(generator: SeededGenerator())
        let seed = factory.generator.seed
        let originals = factory.make(count: 2_000)
        let (viaCodable, viaMacro) = try await store.write { db in
            var codable: [Everything] = []
            var macro: [MacroEverything] = []
            for (index, original) in originals.enumerated() {
                if index.isMultiple(of: 2) {
                    var model = original
                    try db.insert(&model)
                    codable.append(model)
                } else {
                    var model = MacroEverything(original)
                    try db.insert(&model)
                    macro.append(model)
                }
            }
            return (codable, macro)
        }
        let (asMacro, asCodable) = try await store.read { db in
            (try db.fetch(StoreRequest<MacroEverything>()), try db.fetch(StoreRequest<Everything>()))
        }
        try #require(asMacro.count == originals.count && asCodable.count == originals.count)
        let inserted = zip(viaCodable, viaMacro.map(\.everything)).flatMap { [$0, $1] }
        expectSame(inserted, asMacro.map(\.everything), seed: seed)
        expectSame(inserted, asCodable, seed: seed)
    }

    @Test("Optionals, raw-value and Codable enums, Date, UUID, Data and dictionaries round-trip, nil and not")
    func extras() throws {
        let full = Extras(
            id: UUID(), mood: .busy, maybeMood: .calm, maybePriority: .high, shape: .circle(radius: 2.5),
            maybeShape: .label("x"), maybeDate: Date(timeIntervalSince1970: 1_700_000_000.25),
            maybeUUID: UUID(), maybeData: Data([0, 1, 2]), maybeDouble: -1.5, maybeFlag: false,
            counts: ["a": 1, "b": 2])
        let empty = Extras(
            id: UUID(), mood: .calm, maybeMood: nil, maybePriority: nil, shape: .label(""), maybeShape: nil,
            maybeDate: nil, maybeUUID: nil, maybeData: nil, maybeDouble: nil, maybeFlag: nil, counts: [:])
        let stored = try store.write { db in
            var first = full
            var second = empty
            try db.insert(&first)
            try db.insert(&second)
            return try db.fetchRows(
                sql: "SELECT typeof(maybeMood), typeof(maybePriority), typeof(maybeShape), typeof(maybeDate) FROM extras ORDER BY rowid")
        }
        #expect(
            stored.map(\.values) == [
                [.text("text"), .text("integer"), .text("text"), .text("real")],
                [.text("null"), .text("null"), .text("null"), .text("null")],
            ])
        let fetched = try store.read { db in
            (try db.fetchOne(Extras.self, id: full.id), try db.fetchOne(Extras.self, id: empty.id))
        }
        #expect(fetched.0 == full)
        #expect(fetched.1 == empty)
    }

    @Test("A value that does not fit its property is a StoreError naming the column, not a crash")
    func mismatchThrows() throws {
        try store.write { db in
            try db.execute(sql: "INSERT INTO extras(id, mood, shape, counts) VALUES ('\(UUID().uuidString)', 'angry', '{}', '{}')")
        }
        let error = #expect(throws: StoreError.self) { try store.read { db in try db.fetch(StoreRequest<Extras>()) } }
        #expect(error?.code == .mismatch)
        #expect(error?.message.contains("mood") == true)
    }

    private func expectSame(
        _ expected: [Everything], _ actual: [Everything], seed: UInt64,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var mismatches = 0
        for (original, stored) in zip(expected, actual) {
            let differences = original.differences(from: stored)
            if !differences.isEmpty, mismatches < 10 {
                Issue.record("row \(original.id ?? 0) differs in \(differences), seed \(seed)", sourceLocation: sourceLocation)
            }
            if !differences.isEmpty { mismatches += 1 }
        }
        #expect(mismatches == 0, "seed \(seed)", sourceLocation: sourceLocation)
    }
}
