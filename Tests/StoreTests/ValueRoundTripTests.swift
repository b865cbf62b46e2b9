import Foundation
import SQLiteStoreCore
import Testing

/// An integer-backed enum stored as its raw value.
enum Priority: Int, Codable, DatabaseValueConvertible {
    case low = 1
    case high = 2
}

/// A string-backed enum stored as its raw value.
enum Mood: String, Codable, DatabaseValueConvertible {
    case calm, busy
}

/// Each Swift type and storage class bound to a statement and read back from a real file.
@Suite("Binding and reading values")
struct ValueRoundTripTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: "CREATE TABLE value(x)")  // no affinity: storage classes stay as bound
    }

    /// Stores `value` alone in the table and reads it back as `T`, with its storage class.
    private func roundTrip<T: DatabaseValueConvertible>(
        _ value: some DatabaseValueConvertible,
        as type: T.Type
    ) throws -> (value: T?, storage: String?) {
        try store.write { db in
            try db.execute(sql: "DELETE FROM value")
            try db.execute(sql: "INSERT INTO value(x) VALUES (?)", arguments: [value])
        }
        return try store.read { db in
            (
                try db.fetchValue(T.self, sql: "SELECT x FROM value"),
                try db.fetchValue(String.self, sql: "SELECT typeof(x) FROM value")
            )
        }
    }

    private func roundTrip<T: DatabaseValueConvertible>(_ value: T) throws -> (value: T?, storage: String?) {
        try roundTrip(value, as: T.self)
    }

    @Test(
        "Every storage class binds and reads as itself",
        arguments: [
            (DatabaseValue.null, "null"), (.integer(-42), "integer"), (.real(2.5), "real"),
            (.text("text"), "text"), (.blob(Data([0, 1, 255])), "blob"),
        ])
    func storageClasses(value: DatabaseValue, storage: String) throws {
        let stored = try store.write { db in
            try db.execute(sql: "INSERT INTO value(x) VALUES (?)", arguments: [value])
            return try db.fetchRows(sql: "SELECT x, typeof(x) AS type FROM value")
        }
        #expect(stored.count == 1)
        #expect(stored.first?[0] == value)
        #expect(stored.first?["type"] == .text(storage))
    }

    /// Values are equal as SQLite finds them equal: canonically equivalent texts of different
    /// bytes are two values, two keys of a primary key, two members of a set.
    @Test func canonicallyEquivalentTextsAreTwoValuesAsInSQLite() throws {
        let (composed, decomposed) = (DatabaseValue.text("\u{E9}"), DatabaseValue.text("e\u{301}"))
        let sqliteEquates = try store.read { db in try db.fetchValue(Bool.self, sql: "SELECT ? = ?", arguments: [composed, decomposed]) }
        #expect(sqliteEquates == false)
        #expect(composed != decomposed && Set([composed, decomposed]).count == 2)
        #expect(composed == .text("\u{E9}") && [composed: 1][.text("\u{E9}")] == 1)
    }

    @Test("Bool is INTEGER 0 or 1", arguments: [false, true])
    func bool(value: Bool) throws {
        let result = try roundTrip(value)
        #expect(result.value == value)
        #expect(result.storage == "integer")
        #expect(try roundTrip(value, as: Int.self).value == (value ? 1 : 0))
    }

    @Test("Int64 keeps its extremes", arguments: [Int64.min, Int64.min + 1, -1, 0, 1, Int64.max - 1, Int64.max])
    func int64(value: Int64) throws {
        let result = try roundTrip(value)
        #expect(result.value == value)
        #expect(result.storage == "integer")
    }

    @Test("Every fixed-width integer type keeps its min and max")
    func integerTypes() throws {
        try expectIntegerExtremes(Int.self)
        try expectIntegerExtremes(Int8.self)
        try expectIntegerExtremes(Int16.self)
        try expectIntegerExtremes(Int32.self)
        try expectIntegerExtremes(UInt8.self)
        try expectIntegerExtremes(UInt16.self)
        try expectIntegerExtremes(UInt32.self)
        #expect(try roundTrip(UInt(Int64.max)).value == UInt(Int64.max))
        #expect(try roundTrip(UInt64(Int64.max)).value == UInt64(Int64.max))
        #expect(try roundTrip(UInt64.min).value == 0)
    }

    private func expectIntegerExtremes<T: DatabaseInteger>(_ type: T.Type) throws {
        for value in [T.min, T.max] {
            let result = try roundTrip(value)
            #expect(result.value == value, "\(T.self) \(value)")
            #expect(result.storage == "integer", "\(T.self) \(value)")
        }
    }

    @Test(
        "An integer out of the Swift type's range does not convert",
        arguments: [
            Int64(256), Int64(-1), Int64(Int32.max) + 1,
        ])
    func integerOutOfRange(stored: Int64) throws {
        _ = try roundTrip(stored)
        let error = #expect(throws: StoreError.self) {
            _ = try store.read { db in try db.fetchValue(UInt8.self, sql: "SELECT x FROM value") }
        }
        #expect(error?.code == .mismatch)
        if stored > Int64(Int32.max) {
            #expect(throws: StoreError.self) { _ = try store.read { db in try db.fetchValue(Int32.self, sql: "SELECT x FROM value") } }
        }
    }

    @Test("UInt64 above Int64.max is stored as a rounded REAL and does not read back as UInt64")
    func uint64AboveInt64Max() throws {
        let value = UInt64(Int64.max) + 1
        let result = try roundTrip(value, as: Double.self)
        #expect(result.storage == "real")
        #expect(result.value == 0x1p63)
        let error = #expect(throws: StoreError.self) { _ = try roundTrip(UInt64.max) }
        #expect(error?.code == .mismatch)
    }

    @Test("A REAL with no fraction reads as an integer; one with a fraction does not")
    func integerFromReal() throws {
        #expect(try roundTrip(3.0, as: Int.self).value == 3)
        let error = #expect(throws: StoreError.self) { _ = try roundTrip(3.5, as: Int.self) }
        #expect(error?.code == .mismatch)
    }

    @Test(
        "Double keeps every bit, infinities and subnormals included",
        arguments: [
            0.0, 1.5, -Double.pi, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude,
            .leastNormalMagnitude, .infinity, -.infinity, 1e-300, 0.1 + 0.2,
        ])
    func double(value: Double) throws {
        let result = try roundTrip(value)
        #expect(result.value?.bitPattern == value.bitPattern)
        #expect(result.storage == "real")
    }

    @Test("Negative zero keeps its sign in an untyped column, not in a REAL one (as documented)")
    func negativeZero() throws {
        #expect(try roundTrip(-0.0).value?.sign == .minus)
        let real = try store.write { db in
            try db.execute(sql: "CREATE TABLE real(x REAL)")
            try db.execute(sql: "INSERT INTO real(x) VALUES (?)", arguments: [-0.0])
            return try db.fetchValue(Double.self, sql: "SELECT x FROM real")
        }
        #expect(real?.bitPattern == 0.0.bitPattern)
    }

    @Test("NaN is rejected with SQLITE_MISMATCH and nothing is written")
    func nanIsRejected() throws {
        for nan in [Double.nan, -Double.nan, Double.signalingNaN] {
            let error = #expect(throws: StoreError.self) {
                try store.write { db in try db.execute(sql: "INSERT INTO value(x) VALUES (?)", arguments: [nan]) }
            }
            #expect(error?.code == .mismatch)
            #expect(error?.sql == "INSERT INTO value(x) VALUES (?)")
        }
        let floatError = #expect(throws: StoreError.self) {
            try store.write { db in try db.execute(sql: "INSERT INTO value(x) VALUES (?)", arguments: [Float.nan]) }
        }
        #expect(floatError?.code == .mismatch)
        #expect(try store.read { db in try db.count("value") } == 0)
    }

    @Test(
        "Float keeps every bit",
        arguments: [
            Float(0), 1.1, -3.25, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity, -.infinity,
        ])
    func float(value: Float) throws {
        let result = try roundTrip(value)
        #expect(result.value?.bitPattern == value.bitPattern)
        #expect(result.storage == "real")
    }

    @Test(
        "String keeps its exact UTF-8 bytes",
        arguments: [
            "", "plain", "quote ' and \" and ;--", "日本語のテキスト", "family 👩‍👩‍👧‍👦 flag 🇫🇷 skin 👍🏽",
            "decomposed e\u{301} vs precomposed \u{E9}", "\u{FEFF}BOM and \u{200B}zero width", "line\nbreak\ttab\r",
            String(repeating: "long ", count: 50_000),
        ])
    func string(value: String) throws {
        let result = try roundTrip(value)
        #expect(result.value.map { Array($0.utf8) } == Array(value.utf8))
        #expect(result.storage == "text")
    }

    /// SQLite stores the whole text, NUL included; its SQL string functions stop at the first NUL.
    @Test("A NUL inside a String is stored and read back whole")
    func stringWithNUL() throws {
        let value = "before\u{0}after"
        let result = try roundTrip(value)
        #expect(result.value.map { Array($0.utf8) } == Array(value.utf8))
        let bytes = try store.read { db in try db.fetchValue(Int.self, sql: "SELECT length(CAST(x AS BLOB)) FROM value") }
        #expect(bytes == value.utf8.count)
    }

    @Test("Data: empty is an empty BLOB, not NULL")
    func emptyData() throws {
        let result = try roundTrip(Data())
        #expect(result.value == Data())
        #expect(result.storage == "blob")
    }

    @Test("Data: a 1 MB blob of random bytes comes back byte for byte")
    func largeData() throws {
        var generator = SeededGenerator()
        let value = Data((0..<1_048_576).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let result = try roundTrip(value)
        #expect(result.value == value, "seed \(generator.seed)")
        #expect(result.storage == "blob")
    }

    @Test("Data reads TEXT as its UTF-8 bytes")
    func dataFromText() throws {
        #expect(try roundTrip("héllo", as: Data.self).value == Data("héllo".utf8))
    }

    @Test(
        "Date is REAL seconds since 1970 and round-trips within a microsecond",
        arguments: [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_700_000_000.123456),
            Date(timeIntervalSinceReferenceDate: 0.000_001), Date(timeIntervalSince1970: -1_000_000_000.5),
            Date(timeIntervalSince1970: 4_000_000_000.999_999),
        ])
    func date(value: Date) throws {
        let result = try roundTrip(value)
        let stored = try #require(result.value)
        #expect(abs(stored.timeIntervalSince(value)) <= 1e-6)
        #expect(result.storage == "real")
        #expect(try roundTrip(value, as: Double.self).value == value.timeIntervalSince1970)
    }

    @Test("Dates within 2^33 s of 1970 round-trip within 1 µs, years 1 to 9999 within 16 µs")
    func datePrecision() throws {
        var generator = SeededGenerator()
        let epoch = Date.timeIntervalBetween1970AndReferenceDate
        let near = 0x1p33
        let year1 = -62_135_596_800.0
        let year9999 = 253_402_300_799.0
        // Worst cases: just past a power of two of seconds since 1970, where converting rounds.
        let edges = (31...37).flatMap { power in
            [(Double(1 << power) - epoch).nextUp, (-Double(1 << power) - epoch).nextDown]
        }.map { Date(timeIntervalSinceReferenceDate: $0) }
        let nearDates = (0..<1_000).map { _ in Date(timeIntervalSince1970: .random(in: -near...near, using: &generator)) }
        let farDates = (0..<1_000).map { _ in Date(timeIntervalSince1970: .random(in: year1...year9999, using: &generator)) }
        let dates = edges + nearDates + farDates
        let stored = try store.write { db in
            for date in dates { try db.execute(sql: "INSERT INTO value(x) VALUES (?)", arguments: [date]) }
            return try db.fetchRows(sql: "SELECT x FROM value ORDER BY rowid").map { try $0.decode(Date.self, column: "x") }
        }
        #expect(stored.count == dates.count)
        for (date, back) in zip(dates, stored) {
            let bound = abs(date.timeIntervalSince1970) <= near ? 1e-6 : 16e-6
            #expect(abs(back.timeIntervalSince(date)) <= bound, "\(date.timeIntervalSince1970), seed \(generator.seed)")
        }
    }

    @Test("Date reads INTEGER seconds and the text SQLite's date functions write")
    func dateFromSQLite() throws {
        let dates = try store.read { db in
            [
                try db.fetchValue(Date.self, sql: "SELECT unixepoch('2024-02-29 12:34:56')"),
                try db.fetchValue(Date.self, sql: "SELECT datetime(1709210096, 'unixepoch')"),
                try db.fetchValue(Date.self, sql: "SELECT strftime('%Y-%m-%d %H:%M:%f', 1709210096.25, 'unixepoch')"),
                try db.fetchValue(Date.self, sql: "SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 1709210096.25, 'unixepoch')"),
                try db.fetchValue(Date.self, sql: "SELECT date(1709210096, 'unixepoch')"),
            ]
        }
        #expect(
            dates == [
                Date(timeIntervalSince1970: 1_709_210_096), Date(timeIntervalSince1970: 1_709_210_096),
                Date(timeIntervalSince1970: 1_709_210_096.25), Date(timeIntervalSince1970: 1_709_210_096.25),
                Date(timeIntervalSince1970: 1_709_164_800),
            ])
        let error = #expect(throws: StoreError.self) { _ = try roundTrip("not a date", as: Date.self) }
        #expect(error?.code == .mismatch)
    }

    @Test("UUID is canonical uppercase TEXT; lowercase text and 16-byte blobs read too")
    func uuid() throws {
        let value = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let result = try roundTrip(value)
        #expect(result.value == value)
        #expect(result.storage == "text")
        #expect(try roundTrip(value, as: String.self).value == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(try roundTrip("e621e1f8-c36c-495a-93fc-0c247a3e6e5f", as: UUID.self).value == value)
        let bytes = withUnsafeBytes(of: value.uuid) { Data($0) }
        #expect(try roundTrip(bytes, as: UUID.self).value == value)
    }

    @Test("Optional binds NULL for nil and the wrapped value otherwise")
    func optional() throws {
        #expect(try roundTrip(Int?.none).storage == "null")
        #expect(try roundTrip(Int?.none, as: Int.self).value == nil)
        let some = try roundTrip(Int?.some(7))
        #expect(some.value == .some(7))
        #expect(some.storage == "integer")
        let rows = try store.read { db in try db.fetchRows(sql: "SELECT NULL AS x") }
        #expect(try rows.first?.decode(Int?.self, column: "x") == .some(nil))
        #expect(throws: StoreError.self) { try rows.first?.decode(Int.self, column: "x") }
    }

    @Test("RawRepresentable enums are stored as their raw values")
    func rawRepresentable() throws {
        let priority = try roundTrip(Priority.high)
        #expect(priority.value == .high)
        #expect(priority.storage == "integer")
        let mood = try roundTrip(Mood.busy)
        #expect(mood.value == .busy)
        #expect(try roundTrip(Mood.busy, as: String.self).value == "busy")
        let error = #expect(throws: StoreError.self) { _ = try roundTrip("grumpy", as: Mood.self) }
        #expect(error?.code == .mismatch)
    }

    @Test("Reading TEXT as a number is a mismatch error naming the SQL")
    func typeMismatch() throws {
        _ = try roundTrip("abc")
        let error = #expect(throws: StoreError.self) {
            _ = try store.read { db in try db.fetchValue(Int.self, sql: "SELECT x FROM value") }
        }
        #expect(error?.code == .mismatch)
        #expect(error?.message.contains("SELECT x FROM value") == true)
    }
}
