import Foundation
import TestSupport
import Testing

@testable import SQLiteStoreCore

/// `Database.withValuesTable`: values held in Swift read by SQL as a table, exactly, only while
/// the closure runs.
@Suite("Values read as a table")
struct ValuesTableTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: Item.schema)
    }

    /// Values of every kind, the awkward ones first: empty text and blobs, NUL inside text,
    /// the extreme integers, infinities and signed zeros.
    private static let awkward: [DatabaseValue] = [
        .null, .text(""), .blob(Data()), .text("a\u{0}b"), .text("é😀"), .blob(Data([0, 255, 0])), .integer(.min), .integer(.max),
        .real(.infinity), .real(-.infinity), .real(-0.0), .real(.leastNonzeroMagnitude),
    ]

    private static func randomValue(using generator: inout SeededGenerator) -> DatabaseValue {
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: .integer(Int64.random(in: .min ... .max, using: &generator))
        case 1: .real(Double.random(in: -1e300...1e300, using: &generator))
        case 2:
            .text(String((0..<Int.random(in: 0...8, using: &generator)).map { _ in "a\u{0}é😀".randomElement(using: &generator) ?? "a" }))
        case 3: .blob(Data((0..<Int.random(in: 0...8, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        case 4: Self.awkward.randomElement(using: &generator) ?? .null
        default: .null
        }
    }

    @Test("Every value reads back identical, in its own type, in the rows' order")
    func valuesReadBackIdentical() throws {
        var generator = SeededGenerator()
        var table = ValuesTable(columnNames: ["ri", "value", "other"])
        var expected: [[DatabaseValue]] = []
        for index in 0..<(Self.awkward.count + 2_000) {
            let value = index < Self.awkward.count ? Self.awkward[index] : Self.randomValue(using: &generator)
            let other = Self.randomValue(using: &generator)
            table.append(.integer(Int64(index)), value, other)
            expected.append([.integer(Int64(index)), value, other])
        }
        let read = try store.read { db in
            try db.withValuesTable(table, named: "store_test_values") {
                try db.fetchRows(sql: "SELECT ri, value, other FROM store_test_values").map(\.values)
            }
        }
        #expect(read.count == expected.count, "seed \(generator.seed)")
        for (row, wanted) in zip(read, expected) where !row.elementsEqual(wanted, by: { $0.isIdentical(to: $1) }) {
            Issue.record("seed \(generator.seed): read \(row), wrote \(wanted)")
        }
    }

    @Test("The table is there only while the closure runs, thrown out of or not")
    func tableGoneAfterward() throws {
        struct Stop: Error {}
        let table = ValuesTable(columnNames: ["ri"])
        try store.read { db in
            let count = try db.withValuesTable(table, named: "store_test_values") {
                try db.fetchValue(Int.self, sql: "SELECT count(*) FROM store_test_values")
            }
            #expect(count == 0)
            #expect(throws: StoreError.self) { try db.fetchRows(sql: "SELECT * FROM store_test_values") }
            #expect(throws: Stop.self) { try db.withValuesTable(table, named: "store_test_values") { throw Stop() } }
            #expect(throws: StoreError.self) { try db.fetchRows(sql: "SELECT * FROM store_test_values") }
        }
    }

    @Test("NaN is an error of the statement reading it, which writes nothing")
    func notANumberRefused() throws {
        var table = ValuesTable(columnNames: ["ri", "value"])
        table.append(.integer(0), .text("kept out"))
        table.append(.integer(1), .real(.nan))
        #expect(throws: StoreError.self) {
            try store.write { db in
                try db.withValuesTable(table, named: "store_test_values") {
                    try db.prepare(sql: "INSERT INTO item(title) SELECT value FROM store_test_values").execute()
                }
            }
        }
        #expect(try store.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM item") } == 0)
    }
}
