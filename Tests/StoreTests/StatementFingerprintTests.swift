import SQLiteStoreCore
import Testing

/// `Statement.fingerprint(columns:)`, which tells a fetched-results controller whether a row
/// read again changed: equal for the same values, different for values SQLite tells apart.
@Suite struct StatementFingerprintTests {
    let directory: TemporaryDirectory
    let store: Store

    init() throws {
        directory = try TemporaryDirectory()
        store = try directory.makeStore(schema: "CREATE TABLE value(id INTEGER PRIMARY KEY, a ANY, b ANY) STRICT")
    }

    /// The fingerprint of each row of `rows` (a query of two columns), in order.
    private func fingerprints(_ rows: String) throws -> [UInt64] {
        try store.read { db in
            let statement = try db.cachedStatement(sql: rows)
            defer { statement.reset() }
            var fingerprints: [UInt64] = []
            while try statement.step() { fingerprints.append(statement.fingerprint(columns: 0..<2)) }
            return fingerprints
        }
    }

    @Test func valuesSQLiteTellsApartHaveDifferentFingerprints() throws {
        let rows = [
            "1, NULL", "1.0, NULL", "'1', NULL", "x'31', NULL", "NULL, NULL", "NULL, 1", "0, NULL", "'', NULL", "x'', NULL",
            "-1, NULL", "'Café', NULL", "'Cafe' || char(769), NULL",  // NFC and NFD
            "'ab', 'c'", "'a', 'bc'", "'abcdefgh', ''", "'abcdefg', 'h'",  // bytes shifted between columns
            "'abcdefghi', NULL", "'abcdefghj', NULL", "'abcdefgh' || char(0), NULL", "'abcdefgh', NULL",  // past 8 bytes, padding
            "x'0001', NULL", "x'000100', NULL", "9223372036854775807, NULL", "-9223372036854775808, NULL", "0.0, NULL", "-0.0, NULL",
        ]
        let fingerprints = try self.fingerprints(rows.map { "SELECT \($0)" }.joined(separator: " UNION ALL "))
        #expect(fingerprints.count == rows.count)
        for (index, fingerprint) in fingerprints.enumerated() {
            let same = fingerprints.indices.filter { fingerprints[$0] == fingerprint && $0 != index }
            #expect(same.isEmpty, "\(rows[index]) shares its fingerprint with \(same.map { rows[$0] })")
        }
    }

    @Test func theSameValuesHaveTheSameFingerprint() throws {
        let row = "SELECT 42, 'a text longer than eight bytes' UNION ALL SELECT 42, 'a text longer than ' || 'eight bytes'"
        let fingerprints = try fingerprints(row)
        #expect(fingerprints.count == 2 && fingerprints[0] == fingerprints[1])
        #expect(try self.fingerprints(row) == fingerprints, "read again")
    }

    @Test func manyRowsOfTiesAndSmallChangesShareNoFingerprint() throws {
        // Near values: one bit, one byte or one column apart.
        let fingerprints = try fingerprints(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            SELECT i, 'title ' || (i / 2) FROM n WHERE i % 2 = 0
            UNION ALL SELECT i, 'title ' || (i / 2) FROM n WHERE i % 2 = 1
            UNION ALL SELECT i * 1.0, NULL FROM n
            """)
        #expect(fingerprints.count == 40_000)
        #expect(Set(fingerprints).count == fingerprints.count)
    }
}
