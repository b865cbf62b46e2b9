import Foundation
import SQLiteStoreCore
import Testing

/// Every property type a model can store, optional and not, through every way a row becomes
/// a model: random values come back equal; a stored value that does not convert is a
/// `StoreError` naming its column, never `nil` or a default that the next save would write back.
@Suite("Every property type, randomized: round trip and undecodable values")
struct ModelEveryTypeRandomizedTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        let columns =
            PropertyKind.all.map { "\($0.column) \($0.declaredType)" }
            + PropertyKind.all.map { "\($0.optionalColumn) \($0.declaredType)" }
        // No NOT NULL: a NULL in a non-optional property's column is one of the values to refuse.
        store = try directory.makeStore(
            schema: """
                CREATE TABLE every_type(id INTEGER PRIMARY KEY, \(columns.joined(separator: ", ")));
                CREATE TABLE sticker(id INTEGER PRIMARY KEY, every_type_id INTEGER NOT NULL REFERENCES every_type(id));
                CREATE TABLE boxed(id INTEGER PRIMARY KEY, value);
                """)
    }

    @Test("The catalogue of property kinds lists every column of EveryType, in order")
    func catalogueIsComplete() {
        let columns = PropertyKind.all.map(\.column) + PropertyKind.all.map(\.optionalColumn)
        #expect(["id"] + columns == EveryType.storeColumns?.map(\.name))
    }

    @Test("Random values of every type, optional and not, come back equal through the macro and through Codable")
    func randomValuesRoundTrip() throws {
        var generator = SeededGenerator()
        let seed = generator.seed
        let originals = (0..<600).map { _ in EveryType.random(using: &generator) }
        let inserted = try store.write { db in
            try originals.enumerated().map { index, original in
                guard index.isMultiple(of: 2) else {
                    var model = ViaCodable(original)
                    try db.insert(&model)
                    return model.model
                }
                var model = original
                try db.insert(&model)
                return model
            }
        }
        let (byIndex, byName) = try store.read { db in
            (try db.fetch(StoreRequest<EveryType>()), try db.fetch(StoreRequest<ViaCodable<EveryType>>()).map(\.model))
        }
        for (expected, (macro, codable)) in zip(inserted, zip(byIndex, byName)) where macro != expected || codable != expected {
            Issue.record("row \(expected.id ?? 0) differs, seed \(seed):\n\(expected)\nmacro: \(macro)\nCodable: \(codable)")
            return
        }
        #expect(byIndex.count == inserted.count && byName.count == inserted.count, "seed \(seed)")
    }

    @Test("A stored value that does not convert throws a StoreError naming the column on every read, optional or not")
    func undecodableValuesThrow() throws {
        var generator = SeededGenerator()
        let seed = generator.seed
        for kind in PropertyKind.all {
            for optional in [false, true] {
                let column = optional ? kind.optionalColumn : kind.column
                var values = (0..<6).map { _ in kind.undecodable(&generator) }
                if !optional { values.append(.null) }
                for value in values {
                    try expectRefused(value, in: column, of: kind, optional: optional, generator: &generator, seed: seed)
                }
            }
        }
    }

    /// Stores `value` in `column` of a fresh random row, then reads that row every way there is.
    private func expectRefused(
        _ value: DatabaseValue, in column: String, of kind: PropertyKind, optional: Bool, generator: inout SeededGenerator,
        seed: UInt64
    ) throws {
        let context = "\(column) = \(value), seed \(seed)"
        var model = EveryType.random(using: &generator)
        let rowID = try store.write { db in
            try db.execute(script: "DELETE FROM sticker; DELETE FROM every_type; DELETE FROM boxed")
            try db.insert(&model)
            let rowID = try #require(model.id)
            try db.execute(sql: "UPDATE every_type SET \(SQLIdentifier.quote(column)) = ? WHERE id = ?", arguments: [value, rowID])
            try db.execute(sql: "INSERT INTO sticker(every_type_id) VALUES (?)", arguments: [rowID])
            try db.execute(sql: "INSERT INTO boxed(id, value) VALUES (?, ?)", arguments: [rowID, value])
            return rowID
        }
        let reads: [(String, (Database) throws -> Void)] = [
            ("fetchOne, by index", { db in _ = try db.fetchOne(EveryType.self, rowID: rowID) }),
            ("fetch, by index", { db in _ = try db.fetch(StoreRequest<EveryType>()) }),
            ("fetchOne, Codable", { db in _ = try db.fetchOne(ViaCodable<EveryType>.self, rowID: rowID) }),
            ("fetch, Codable", { db in _ = try db.fetch(StoreRequest<ViaCodable<EveryType>>()) }),
            ("to-one, by index", { db in _ = try db.fetch(StoreRequest<Sticker>(), including: Sticker.everyType) }),
            ("to-one, Codable", { db in _ = try db.fetch(StoreRequest<Sticker>(), including: Sticker.everyTypeViaCodable) }),
        ]
        for (name, read) in reads {
            expectMismatch(naming: column, "\(name): \(context)") { try store.read(read) }
        }
        if let other = kind.otherReads {
            expectMismatch(naming: column, "Row.decode: \(context)") {
                let row = try store.read { db in try db.fetchRows(sql: "SELECT * FROM every_type") }
                try other.row(try #require(row.first), column, optional)
            }
            expectMismatch(naming: "value", "Boxed (Codable, generic): \(context)") {
                try store.read { db in try other.boxed(db, rowID, optional) }
            }
        }
        // SQLite kept the value as it was given (the column's affinity did not convert it).
        let stored = try store.read { db in try db.fetchRows(sql: "SELECT \(SQLIdentifier.quote(column)) FROM every_type") }
        #expect(stored.first?.values == [value], "stored: \(context)")
    }

    private func expectMismatch(
        naming column: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ read: () throws -> Void
    ) {
        do {
            try read()
            Issue.record("read without an error: \(context)", sourceLocation: sourceLocation)
        } catch let error as StoreError {
            #expect(error.code == .mismatch, "\(error): \(context)", sourceLocation: sourceLocation)
            #expect(Self.message(error.message, names: column), "\(error): \(context)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("not a StoreError: \(error): \(context)", sourceLocation: sourceLocation)
        }
    }

    /// Whether `message` says "column <name>" with nothing of a longer name after it.
    private static func message(_ message: String, names column: String) -> Bool {
        var rest = Substring(message)
        while let range = rest.range(of: "column \(column)") {
            rest = rest[range.upperBound...]
            guard let next = rest.first, next.isLetter || next.isNumber || next == "_" else { return true }
        }
        return false
    }
}
