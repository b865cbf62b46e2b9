// Edge cases of the row coding fast paths: the positional column lookup, values bound
// straight into the cached statement, and the per-column conversion caches.
import Foundation
import SQLiteStoreCore
import Testing

enum Color: String, Codable, DatabaseValueConvertible { case red, green }
struct Inner: Codable, Equatable { var a: Int; var b: [String] }

struct Wide: StoreModel, Equatable {
    static let tableName = "wide"
    var id: Int64?
    var when: Date?
    var uuid: UUID
    var data: Data?
    var color: Color
    var colorMaybe: Color?
    var inner: Inner?
    var small: Int8
    var f: Float?
    var u: UInt64
    static let schema = "CREATE TABLE wide(id INTEGER PRIMARY KEY, \"when\", uuid, data, color, colorMaybe, inner, small, f, u)"
}

/// Keys declared in another order than the columns, and decoding in yet another order.
struct Shuffled: StoreModel, Equatable {
    static let tableName = "wide"
    var id: Int64?
    var small: Int8
    var color: Color
    enum CodingKeys: String, CodingKey { case small, color, id }
    init(id: Int64?, small: Int8, color: Color) { self.id = id; self.small = small; self.color = color }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        color = try c.decode(Color.self, forKey: .color)
        id = try c.decodeIfPresent(Int64.self, forKey: .id)
        small = try c.decode(Int8.self, forKey: .small)
        #expect(c.contains(.small))
        #expect(try c.decodeNil(forKey: .small) == false)
    }
}

/// Encodes a varying set of columns: `note` only when present.
struct Sparse: StoreModel, Equatable {
    static let tableName = "sparse"
    var id: Int64?
    var name: String
    var note: String?
    enum CodingKeys: String, CodingKey { case id, name, note }
    init(id: Int64? = nil, name: String, note: String?) { self.id = id; self.name = name; self.note = note }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        if let note { try c.encode(note, forKey: .note) }
    }
    static let schema = "CREATE TABLE sparse(id INTEGER PRIMARY KEY, name TEXT NOT NULL, note TEXT DEFAULT 'dflt')"
}

/// A model whose `missing` property has no column: decodeIfPresent gives nil.
struct Partial: StoreModel, Equatable {
    static let tableName = "sparse"
    var id: Int64?
    var name: String
    var missing: String?
    var missingDate: Date?
}

struct WrongTypedSparse: StoreModel {
    static let tableName = "sparse"
    var id: Int64?
    var name: Int
}

@Suite struct RowCodingEdgeTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    func makeStore() throws -> (Store, String) {
        let path = directory.path("edge.sqlite")
        let store = try Store(path: path)
        try store.write { db in try db.execute(script: Wide.schema + ";" + Sparse.schema) }
        return (store, path)
    }

    @Test func wideRoundTripWithNilsAndValues() throws {
        let (store, _) = try makeStore()
        var rows: [Wide] = []
        for i in 0..<50 {
            rows.append(
                Wide(
                    id: nil, when: i % 2 == 0 ? nil : Date(timeIntervalSince1970: Double(i)), uuid: UUID(),
                    data: i % 3 == 0 ? nil : Data([UInt8(i), 0, 1]), color: i % 2 == 0 ? .red : .green,
                    colorMaybe: i % 4 == 0 ? nil : .green, inner: i % 5 == 0 ? nil : Inner(a: i, b: ["x\(i)"]),
                    small: Int8(i), f: i % 2 == 0 ? nil : Float(i) / 3, u: UInt64(i) * 1_000_000_007))
        }
        let inserted = try store.write { db in
            try rows.map { row in
                var row = row; try db.insert(&row); return row
            }
        }
        let fetched = try store.read { db in try db.fetch(StoreRequest<Wide>().order(Column("id").ascending)) }
        #expect(fetched == inserted)
        // update and upsert through the cached statements
        let changed = try store.write { db in
            try inserted.map { row in
                var row = row
                row.when = row.when == nil ? Date(timeIntervalSince1970: 5) : nil
                row.color = .red
                try db.update(row)
                try db.upsert(&row)
                return row
            }
        }
        let again = try store.read { db in try db.fetch(StoreRequest<Wide>().order(Column("id").ascending)) }
        #expect(again == changed)
    }

    @Test func keysInAnotherOrderThanColumns() throws {
        let (store, _) = try makeStore()
        try store.write { db in
            for i in 0..<5 {
                var w = Wide(
                    id: nil, when: nil, uuid: UUID(), data: nil, color: i % 2 == 0 ? .red : .green, colorMaybe: nil,
                    inner: nil, small: Int8(i), f: nil, u: 0)
                try db.insert(&w)
            }
        }
        let shuffled = try store.read { db in try db.fetch(StoreRequest<Shuffled>().order(Column("id").ascending)) }
        var expected: [Shuffled] = []
        for i in 0..<5 {
            let color: Color = i % 2 == 0 ? .red : .green
            expected.append(Shuffled(id: Int64(i + 1), small: Int8(i), color: color))
        }
        #expect(shuffled == expected)
    }

    @Test func varyingColumnsRebindCorrectly() throws {
        let (store, _) = try makeStore()
        let models = (0..<20).map { Sparse(name: "n\($0)", note: $0 % 3 == 0 ? nil : "note\($0)") }
        let inserted = try store.write { db in
            try models.map { m in
                var m = m; try db.insert(&m); return m
            }
        }
        let fetched = try store.read { db in try db.fetch(StoreRequest<Sparse>().order(Column("id").ascending)) }
        #expect(fetched.map(\.name) == inserted.map(\.name))
        #expect(fetched.map(\.note) == inserted.map { $0.note ?? "dflt" })
    }

    @Test func missingColumnsDecodeAsNil() throws {
        let (store, _) = try makeStore()
        try store.write { db in
            var s = Sparse(name: "a", note: "b"); try db.insert(&s)
        }
        let partial = try store.read { db in try db.fetch(StoreRequest<Partial>()) }
        #expect(partial == [Partial(id: 1, name: "a", missing: nil, missingDate: nil)])
    }

    @Test func wrongTypeIsMismatchNamingColumn() throws {
        let (store, _) = try makeStore()
        try store.write { db in
            var s = Sparse(name: "a", note: "b"); try db.insert(&s)
        }
        do {
            _ = try store.read { db in try db.fetch(StoreRequest<WrongTypedSparse>()) }
            Issue.record("no error")
        } catch let error as StoreError {
            #expect(error.code == .mismatch)
            #expect(error.message == "column name: cannot convert 'a' to Int", "\(error.message)")
        }
    }

    @Test func cursorAndFetchOne() throws {
        let (store, _) = try makeStore()
        try store.write { db in for i in 0..<3 { var s = Sparse(name: "n\(i)", note: nil); try db.insert(&s) } }
        let (one, all) = try store.read { db in
            var cursor = try db.cursor(StoreRequest<Sparse>().order(Column("id").ascending))
            var all: [Sparse] = []
            while let s = try cursor.next() { all.append(s) }
            return (try db.fetchOne(Sparse.self, id: 2), all)
        }
        #expect(one?.name == "n1")
        #expect(all.map(\.name) == ["n0", "n1", "n2"])
    }
}

struct WrapError: Error { let inner: any Error }

/// Encodes an extra column only sometimes, and wraps or swallows the errors of its container.
struct Tricky: StoreModel, Equatable {
    static let tableName = "sparse"
    var id: Int64?
    var name: String
    var note: String?
    var swallow: Bool
    enum CodingKeys: String, CodingKey { case id, name, note }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(Int64.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        note = try c.decodeIfPresent(String.self, forKey: .note)
        swallow = false
    }
    init(name: String, note: String?, swallow: Bool) { self.name = name; self.note = note; self.swallow = swallow }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        if let note {
            if swallow {
                try? c.encode(note, forKey: .note)
            } else {
                do { try c.encode(note, forKey: .note) } catch { throw WrapError(inner: error) }
            }
        }
        try c.encode(name, forKey: .name)
    }
}

@Suite struct RowCodingFallbackTests {
    @Test func wrappedOrSwallowedColumnErrorsStillFallBack() throws {
        let directory = try TemporaryDirectory()
        let store = try Store(path: directory.path("tricky.sqlite"))
        try store.write { db in try db.execute(script: Sparse.schema) }
        let models = (0..<12).map { Tricky(name: "n\($0)", note: $0 % 3 == 0 ? nil : "x\($0)", swallow: $0 % 2 == 0) }
        try store.write { db in for var m in models { try db.insert(&m) } }
        let fetched = try store.read { db in try db.fetch(StoreRequest<Tricky>().order(Column("id").ascending)) }
        #expect(fetched.map(\.name) == models.map(\.name))
        #expect(fetched.map(\.note) == models.map { $0.note ?? "dflt" })
    }
}
