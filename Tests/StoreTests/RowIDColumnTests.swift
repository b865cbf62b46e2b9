import Foundation
import SQLiteStoreCore
import Testing

/// A user column named `rowid` (or `_rowid_`, `oid`) hides the rowid under that name: the
/// library reads rowids under a name the table does not shadow.
@Suite struct RowIDColumnTests {
    @Test func tableWithAColumnNamedRowidIsReadByItsRealRowid() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(
            schema: """
                CREATE TABLE odd(rowid TEXT, v INTEGER);
                CREATE TABLE odder(rowid, _rowid_, oid, id INTEGER PRIMARY KEY, v);
                INSERT INTO odd(rowid, v) VALUES ('x', 1), ('y', 2);
                INSERT INTO odder(rowid, _rowid_, oid, id, v) VALUES ('a', 'b', 'c', 7, 1);
                """)
        try store.read { db in
            #expect(try db.rowIDName(of: "odd") == "_rowid_")
            #expect(try db.rowIDName(of: "odder") == "\"id\"")
            #expect(try db.rowIDName(of: "ODD") == "_rowid_", "table names compare case-insensitively")
            #expect(try db.existingRowIDs(in: "odd", among: [1, 2, 99]) == [1, 2])
            #expect(try db.existingRowIDs(in: "odder", among: [7, 1]) == [7])
            var values: [Int64: Int] = [:]
            try db.forEachRow(in: "odd", columns: "\(try db.rowIDName(of: "odd")), v", rowIDs: [2]) { statement in
                if case .integer(let id) = statement.value(at: 0), case .integer(let v) = statement.value(at: 1) { values[id] = Int(v) }
            }
            #expect(values == [2: 2])
        }
    }

    @Test func rowidNameFollowsSchemaChangesAndTheirRollback() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(schema: "CREATE TABLE t(v INTEGER); INSERT INTO t(v) VALUES (1)")
        let names = try store.write { db in
            var names = [try db.rowIDName(of: "t")]
            _ = try? db.transaction {
                try db.execute(sql: "ALTER TABLE t ADD COLUMN rowid TEXT")
                names.append(try db.rowIDName(of: "t"))
                throw CancellationError()
            }
            names.append(try db.rowIDName(of: "t"))
            return names
        }
        #expect(names == ["rowid", "_rowid_", "rowid"], "a schema change, then its rollback to the savepoint, are seen")
        #expect(try store.read { db in try db.rowIDName(of: "t") } == "rowid")
        try store.write { db in try db.execute(sql: "ALTER TABLE t ADD COLUMN rowid TEXT") }
        let afterOtherConnection = try store.read { db in try db.rowIDName(of: "t") }
        #expect(afterOtherConnection == "_rowid_", "another connection's schema change is seen")
    }

    @Test func requestOrdersTiesByTheRealRowid() throws {
        struct Odd: StoreModel {
            static let tableName = "odd"
            var id: Int64?
            var v: Int
        }
        let request = StoreRequest<Odd>(tableName: "odd")
        let (sql, _) = try request.sql(selecting: "_rowid_", rowID: "_rowid_")
        #expect(sql.hasSuffix("ORDER BY _rowid_ ASC"))
    }
}
