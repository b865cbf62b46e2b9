import Foundation
import SQLiteStoreCore
import Testing

/// A value nested in a model and stored as JSON.
struct Nested: Codable, Equatable {
    var measure: Double
    var note: String
    var when: Date
}

/// A model with a property of every supported type.
struct Everything: StoreModel {
    static let tableName = "everything"
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

    static let schema = """
        CREATE TABLE everything(
            id INTEGER PRIMARY KEY, flag INTEGER NOT NULL, int INTEGER NOT NULL, int8 INTEGER NOT NULL,
            int16 INTEGER NOT NULL, int32 INTEGER NOT NULL, int64 INTEGER NOT NULL, uint INTEGER NOT NULL,
            uint8 INTEGER NOT NULL, uint16 INTEGER NOT NULL, uint32 INTEGER NOT NULL, uint64 INTEGER NOT NULL,
            double REAL NOT NULL, float REAL NOT NULL, text TEXT NOT NULL, data BLOB NOT NULL, date REAL NOT NULL,
            uuid TEXT NOT NULL, optionalText TEXT, optionalInt INTEGER, priority INTEGER NOT NULL, tags TEXT NOT NULL,
            nested TEXT
        );
        """
}

/// Random `Everything` values, with extreme rows first.
struct EverythingFactory {
    var generator: SeededGenerator

    mutating func make(count: Int) -> [Everything] {
        [Self.minimums, Self.maximums] + (2..<count).map { index in random(large: index % 1_000 == 0) }
    }

    static let minimums = Everything(
        flag: false, int: .min, int8: .min, int16: .min, int32: .min, int64: .min, uint: 0, uint8: 0, uint16: 0,
        uint32: 0, uint64: 0, double: -0.0, float: -.greatestFiniteMagnitude, text: "", data: Data(),
        date: Date(timeIntervalSince1970: -0x1p33), uuid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
        optionalText: "", optionalInt: .min, priority: .low, tags: [], nested: nil)

    static let maximums = Everything(
        flag: true, int: .max, int8: .max, int16: .max, int32: .max, int64: .max, uint: UInt(Int64.max),
        uint8: .max, uint16: .max, uint32: .max, uint64: UInt64(Int64.max), double: .infinity, float: .leastNonzeroMagnitude,
        text: "\u{0}\u{10FFFF}👩‍👩‍👧‍👦", data: Data(repeating: 0xFF, count: 1_048_576),
        date: Date(timeIntervalSince1970: 0x1p33),
        uuid: UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
        optionalText: nil, optionalInt: .max, priority: .high, tags: ["", "\u{0}"],
        nested: Nested(measure: -.greatestFiniteMagnitude, note: "\u{1F600}", when: .distantFuture))

    private mutating func random(large: Bool) -> Everything {
        Everything(
            flag: .random(using: &generator), int: .random(in: .min ... .max, using: &generator),
            int8: .random(in: .min ... .max, using: &generator), int16: .random(in: .min ... .max, using: &generator),
            int32: .random(in: .min ... .max, using: &generator), int64: .random(in: .min ... .max, using: &generator),
            uint: .random(in: 0...UInt(Int64.max), using: &generator), uint8: .random(in: .min ... .max, using: &generator),
            uint16: .random(in: .min ... .max, using: &generator), uint32: .random(in: .min ... .max, using: &generator),
            uint64: .random(in: 0...UInt64(Int64.max), using: &generator), double: randomDouble(), float: randomFloat(),
            text: randomText(maxLength: 40), data: randomData(count: large ? 200_000 : .random(in: 0...64, using: &generator)),
            date: Date(timeIntervalSince1970: .random(in: -0x1p33...0x1p33, using: &generator)),
            uuid: UUID(uuid: randomUUIDBytes()),
            optionalText: Bool.random(using: &generator) ? nil : randomText(maxLength: 10),
            optionalInt: Bool.random(using: &generator) ? nil : .random(in: .min ... .max, using: &generator),
            priority: Bool.random(using: &generator) ? .low : .high,
            tags: (0..<Int.random(in: 0...3, using: &generator)).map { _ in randomText(maxLength: 8) },
            nested: Bool.random(using: &generator)
                ? nil
                : Nested(
                    measure: .random(in: -1e300...1e300, using: &generator), note: randomText(maxLength: 12),
                    when: Date(timeIntervalSinceReferenceDate: .random(in: -1e10...1e10, using: &generator))))
    }

    /// Any Double but NaN: random bit patterns cover subnormals, infinities and both zeros.
    private mutating func randomDouble() -> Double {
        while true {
            let value = Double(bitPattern: generator.next())
            if !value.isNaN { return value }
        }
    }

    private mutating func randomFloat() -> Float {
        while true {
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))
            if !value.isNaN { return value }
        }
    }

    /// Text from ASCII, Latin, CJK, emoji and combining marks, NUL and the last scalar included.
    private mutating func randomText(maxLength: Int) -> String {
        let ranges: [ClosedRange<UInt32>] = [
            0...0x7F, 0xA0...0x24F, 0x300...0x36F, 0x4E00...0x9FFF, 0x1F300...0x1FAFF, 0x10FFF0...0x10FFFF,
        ]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...maxLength, using: &generator) {
            let range = ranges[Int.random(in: 0..<ranges.count, using: &generator)]
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    private mutating func randomData(count: Int) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    private mutating func randomUUIDBytes() -> uuid_t {
        let bytes = randomData(count: 16)
        return (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        )
    }
}

extension Everything {
    /// The properties that differ from `other`: floating point by bit pattern (but for the sign
    /// of a zero Double), text by UTF-8 bytes, dates within the documented microsecond.
    func differences(from other: Everything) -> [String] {
        var differences: [String] = []
        func check(_ name: String, _ same: Bool) { if !same { differences.append(name) } }
        check("id", id == other.id)
        check("flag", flag == other.flag)
        check("int", int == other.int)
        check("int8", int8 == other.int8)
        check("int16", int16 == other.int16)
        check("int32", int32 == other.int32)
        check("int64", int64 == other.int64)
        check("uint", uint == other.uint)
        check("uint8", uint8 == other.uint8)
        check("uint16", uint16 == other.uint16)
        check("uint32", uint32 == other.uint32)
        check("uint64", uint64 == other.uint64)
        // A REAL column stores -0.0 as the integer 0: it reads back as 0.0 (documented on Double).
        check("double", double.bitPattern == other.double.bitPattern || (double == 0 && other.double == 0))
        check("float", float.bitPattern == other.float.bitPattern)
        check("text", Array(text.utf8) == Array(other.text.utf8))
        check("data", data == other.data)
        check("date", abs(date.timeIntervalSince(other.date)) <= 1e-6)
        check("uuid", uuid == other.uuid)
        check("optionalText", optionalText.map { Array($0.utf8) } == other.optionalText.map { Array($0.utf8) })
        check("optionalInt", optionalInt == other.optionalInt)
        check("priority", priority == other.priority)
        check("tags", tags.map { Array($0.utf8) } == other.tags.map { Array($0.utf8) })
        check("nested", nested == other.nested)
        return differences
    }
}

/// Ten thousand random models of every supported type written to a file and read back exactly.
@Suite("Model round trip")
struct ModelRoundTripTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Everything.schema)
    }

    @Test("10,000 rows of every type survive insert and fetch exactly")
    func tenThousandRows() async throws {
        var factory = EverythingFactory(generator: SeededGenerator())
        let seed = factory.generator.seed
        let originals = factory.make(count: 10_000)
        let inserted = try await store.write { db in
            try originals.map { model in
                var model = model
                try db.insert(&model)
                return model
            }
        }
        #expect(inserted.map(\.id) == (1...10_000).map { Int64($0) })
        let fetched = try await store.read { db in try db.fetch(StoreRequest<Everything>()) }
        try #require(fetched.count == inserted.count)
        var mismatches = 0
        for (original, stored) in zip(inserted, fetched) {
            let differences = original.differences(from: stored)
            if !differences.isEmpty, mismatches < 10 {
                Issue.record("row \(original.id ?? 0) differs in \(differences), seed \(seed)")
            }
            if !differences.isEmpty { mismatches += 1 }
        }
        #expect(mismatches == 0, "seed \(seed)")
    }

    @Test("A model cursor reads back the same rows as fetch")
    func cursorMatchesFetch() throws {
        var factory = EverythingFactory(generator: SeededGenerator())
        let originals = factory.make(count: 2_000)
        try store.write { db in
            for var model in originals { try db.insert(&model) }
        }
        let (viaCursor, viaFetch) = try store.read { db in
            var cursor = try db.cursor(StoreRequest<Everything>())
            var models: [Everything] = []
            while let model = try cursor.next() { models.append(model) }
            return (models, try db.fetch(StoreRequest<Everything>()))
        }
        #expect(viaCursor.count == 2_000)
        #expect(zip(viaCursor, viaFetch).allSatisfy { $0.differences(from: $1).isEmpty }, "seed \(factory.generator.seed)")
    }
}
