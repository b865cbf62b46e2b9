import Foundation
import SQLiteStoreCore

/// A random transaction for `FailureRandomizedTests`: statements that SQLite may refuse under
/// each conflict resolution (statement `OR` clauses, the schema's `ON CONFLICT` clauses and
/// `RAISE` in triggers), foreign keys whose cascades a later check undoes, schema changes and
/// cached `IF [NOT] EXISTS` statements, savepoints released or rolled back.
struct FailingScript {
    indirect enum Statement: CustomStringConvertible {
        case sql(String)
        case savepoint([Statement], rollsBack: Bool)

        var description: String {
            switch self {
            case .sql(let sql): sql
            case .savepoint(let inner, let rollsBack):
                "SAVEPOINT { \(inner.map(\.description).joined(separator: "; ")) } \(rollsBack ? "ROLLBACK TO" : "RELEASE")"
            }
        }
    }

    let statements: [Statement]
    let rollsBack: Bool

    static let schema = """
        CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT UNIQUE, v INTEGER CHECK (v >= 0));
        CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id) ON DELETE CASCADE, v INTEGER);
        CREATE TABLE keeper(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id));
        CREATE TABLE f(id INTEGER PRIMARY KEY, u INTEGER UNIQUE ON CONFLICT FAIL, v INTEGER NOT NULL ON CONFLICT IGNORE);
        CREATE TABLE trig(id INTEGER PRIMARY KEY, v INTEGER);
        CREATE TABLE log(id INTEGER PRIMARY KEY, what TEXT);
        CREATE TABLE kv(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
        CREATE TRIGGER trig_abort AFTER INSERT ON trig WHEN NEW.v % 10 = 1 BEGIN
            INSERT INTO log(what) VALUES ('abort'); SELECT RAISE(ABORT, 'abort'); END;
        CREATE TRIGGER trig_fail AFTER INSERT ON trig WHEN NEW.v % 10 = 2 BEGIN
            INSERT INTO log(what) VALUES ('fail'); SELECT RAISE(FAIL, 'fail'); END;
        CREATE TRIGGER trig_rollback AFTER UPDATE ON trig WHEN NEW.v = 3 BEGIN SELECT RAISE(ROLLBACK, 'rollback'); END;
        CREATE TRIGGER trig_ignore BEFORE INSERT ON trig WHEN NEW.v % 10 = 4 BEGIN SELECT RAISE(IGNORE); END;
        CREATE TRIGGER trig_before BEFORE UPDATE ON trig WHEN NEW.v % 10 = 5 BEGIN
            UPDATE log SET what = what || '+' WHERE id = (SELECT max(id) FROM log); END;
        CREATE TRIGGER trig_fail_update AFTER UPDATE ON trig WHEN NEW.v % 10 = 6 BEGIN
            DELETE FROM log WHERE id = (SELECT min(id) FROM log); SELECT RAISE(FAIL, 'fail on update'); END;
        CREATE TRIGGER child_logged AFTER DELETE ON child BEGIN INSERT INTO log(what) VALUES ('child ' || OLD.id); END;
        """

    static let resolutions = ["", " OR ABORT", " OR FAIL", " OR IGNORE", " OR REPLACE", " OR ROLLBACK"]

    static func make(using random: inout SeededGenerator) -> FailingScript {
        let count = Int.random(in: 1...6, using: &random)
        let statements = (0..<count).map { _ in statement(using: &random, depth: 0) }
        return FailingScript(statements: statements, rollsBack: Int.random(in: 0..<12, using: &random) == 0)
    }

    private static func resolution(using random: inout SeededGenerator) -> String {
        // ROLLBACK ends the whole transaction: rarer, so that most transactions commit.
        Int.random(in: 0..<40, using: &random) == 0 ? " OR ROLLBACK" : resolutions[Int.random(in: 0..<5, using: &random)]
    }

    private static func rows(_ count: Int, using random: inout SeededGenerator, _ make: (inout SeededGenerator) -> String) -> String {
        (0..<count).map { _ in make(&random) }.joined(separator: ", ")
    }

    private static func statement(using random: inout SeededGenerator, depth: Int) -> Statement {
        let id = Int.random(in: 1...30, using: &random)
        let other = Int.random(in: 1...30, using: &random)
        let value = Int.random(in: 0...60, using: &random)
        let or = resolution(using: &random)
        let n = Int.random(in: 1...4, using: &random)
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<12:
            return .sql(
                "INSERT\(or) INTO parent(id, name, v) VALUES "
                    + rows(n, using: &random) { r in
                        "(\(Int.random(in: 1...30, using: &r)), 'n\(Int.random(in: 1...20, using: &r))', \(Int.random(in: -2...50, using: &r)))"
                    })
        case 12..<18: return .sql("UPDATE\(or) parent SET v = v - \(value % 12) WHERE id % 3 = \(id % 3)")
        case 18..<21: return .sql("UPDATE\(or) parent SET id = \(other) WHERE id = \(id)")
        case 21..<24: return .sql("UPDATE\(or) parent SET name = 'n\(other % 20 + 1)' WHERE id = \(id)")
        case 24..<30: return .sql("DELETE FROM parent WHERE id IN (\(id), \(other), \(value % 30 + 1))")
        case 30..<38:
            return .sql(
                "INSERT\(or) INTO child(id, parent_id, v) VALUES "
                    + rows(n, using: &random) { r in
                        "(\(Int.random(in: 1...60, using: &r)), \(Int.random(in: 1...32, using: &r)), \(Int.random(in: 0...9, using: &r)))"
                    })
        case 38..<41: return .sql("INSERT\(or) INTO keeper(id, parent_id) VALUES (\(id), \(other))")
        case 41..<43: return .sql("DELETE FROM keeper WHERE id % 4 = \(id % 4)")
        case 43..<50:
            return .sql(
                "INSERT\(or) INTO f(id, u, v) VALUES "
                    + rows(n, using: &random) { r in
                        let v = Int.random(in: 0..<5, using: &r) == 0 ? "NULL" : "\(Int.random(in: 0...9, using: &r))"
                        return "(\(Int.random(in: 1...30, using: &r)), \(Int.random(in: 1...12, using: &r)), \(v))"
                    })
        case 50..<54: return .sql("UPDATE\(or) f SET u = u + \(value % 3) WHERE id >= \(id)")
        case 54..<62:
            return .sql(
                "INSERT\(or) INTO trig(id, v) VALUES "
                    + rows(n, using: &random) { r in
                        "(\(Int.random(in: 1...40, using: &r)), \(Int.random(in: 0...59, using: &r)))"
                    })
        case 62..<68:
            let target = Int.random(in: 0..<30, using: &random) == 0 ? 3 : value
            return .sql("UPDATE\(or) trig SET v = \(target) WHERE id % 5 = \(id % 5)")
        case 68..<70: return .sql("UPDATE\(or) trig SET id = \(other + 10) WHERE id = \(id)")
        case 70..<74: return .sql("INSERT OR REPLACE INTO kv VALUES ('k\(id % 8)', \(Int.random(in: 0...1_000_000, using: &random)))")
        case 74..<76: return .sql("DELETE FROM kv WHERE k = 'k\(id % 8)'")
        case 76..<78: return .sql("DELETE FROM log WHERE id % 3 = \(id % 3)")
        case 78..<80: return .sql("DELETE FROM child")
        case 80..<82: return .sql(["CREATE INDEX IF NOT EXISTS parent_v ON parent(v)", "DROP INDEX IF EXISTS parent_v"][id % 2])
        case 82..<85:
            let table = "extra\(id % 3)"
            return .sql(
                [
                    "CREATE TABLE IF NOT EXISTS \(table)(id INTEGER PRIMARY KEY, v)",
                    "CREATE TABLE IF NOT EXISTS \(table)(k TEXT PRIMARY KEY, v) WITHOUT ROWID",
                    "DROP TABLE IF EXISTS \(table)",
                ][other % 3])
        case 85..<90:
            let table = "extra\(id % 3)"
            return .sql(
                [
                    "INSERT INTO \(table) VALUES ('x\(value)', \(other))", "DELETE FROM \(table) WHERE v = \(other)",
                    "UPDATE \(table) SET v = v + 1",
                ][id % 3])
        default:
            guard depth < 2 else { return .sql("DELETE FROM trig WHERE id = \(id)") }
            let inner = (0..<Int.random(in: 1...3, using: &random)).map { _ in statement(using: &random, depth: depth + 1) }
            return .savepoint(inner, rollsBack: Bool.random(using: &random))
        }
    }

    /// SQL for the other process: rows, and sometimes a schema change (a `WITHOUT ROWID` table among them).
    /// It always writes a log row too: a transaction that changes nothing commits nothing.
    static func externalWrite(using random: inout SeededGenerator) -> String {
        let id = Int.random(in: 1...30, using: &random)
        let value = Int.random(in: 0...50, using: &random)
        return "INSERT INTO log(what) VALUES ('external'); " + externalChange(id: id, value: value, using: &random)
    }

    private static func externalChange(id: Int, value: Int, using random: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return "INSERT OR REPLACE INTO parent(id, name, v) VALUES (\(id), 'ext\(id)', \(value));"
        case 1: return "DELETE FROM child WHERE id % 7 = \(id % 7);"
        case 2: return "INSERT OR REPLACE INTO kv VALUES ('e\(id)', \(value)); UPDATE trig SET v = \(value * 10) WHERE id = \(id);"
        case 3: return "DROP TABLE IF EXISTS extra\(id % 3); CREATE TABLE extra\(id % 3)(k TEXT PRIMARY KEY, v) WITHOUT ROWID;"
        case 4: return "DROP TABLE IF EXISTS extra\(id % 3); CREATE TABLE extra\(id % 3)(id INTEGER PRIMARY KEY, v);"
        default: return "INSERT OR IGNORE INTO f(id, u, v) VALUES (\(id), \(value), 1);"
        }
    }
}

/// Runs a script's statements on the write's connection, catching SQLite's refusals as an app
/// would, and counts what happened.
struct ScriptRunner {
    let db: Database
    var statistics: [String: Int] = [:]
    /// Whether a schema statement succeeded outside any savepoint later rolled back.
    var keptSchemaStatement = false

    init(db: Database) { self.db = db }

    mutating func run(_ statements: [FailingScript.Statement]) throws {
        for statement in statements { try run(statement) }
    }

    private mutating func run(_ statement: FailingScript.Statement) throws {
        switch statement {
        case .sql(let sql):
            do {
                // Schema statements have fixed texts and come from the statement cache; the rest, with
                // literal values, would only fill it.
                if Self.isSchemaStatement(sql) { try db.execute(sql: sql) } else { try db.execute(script: sql) }
                if Self.isSchemaStatement(sql) { keptSchemaStatement = true }
                statistics["statements succeeded", default: 0] += 1
            } catch let error as StoreError where error.code != .misuse {
                statistics["statements failed: \(Self.kind(of: sql, error))", default: 0] += 1
            }
        case .savepoint(let inner, let rollsBack):
            struct Undo: Error {}
            let keptBefore = keptSchemaStatement
            do {
                try db.transaction {
                    try run(inner)
                    if rollsBack { throw Undo() }
                }
            } catch is Undo {
                keptSchemaStatement = keptBefore
                statistics["savepoints rolled back", default: 0] += 1
            }
        }
    }

    private static func isSchemaStatement(_ sql: String) -> Bool {
        sql.hasPrefix("CREATE") || sql.hasPrefix("DROP")
    }

    private static func kind(of sql: String, _ error: StoreError) -> String {
        let resolution = FailingScript.resolutions.dropFirst().first { sql.contains($0 + " ") }?.trimmingCharacters(in: .whitespaces)
        return "\(resolution ?? "default") \(error.code)"
    }
}
