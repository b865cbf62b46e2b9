import Foundation
import SQLiteStoreCore

/// A random transaction for `FailureRandomizedTests`: statements that SQLite may refuse under
/// each conflict resolution (statement `OR` clauses, the schema's `ON CONFLICT` clauses and
/// `RAISE` in triggers), into rowid and `WITHOUT ROWID` tables that triggers also write,
/// foreign keys whose cascades a later check undoes, AUTOINCREMENT tables, schema changes that
/// succeed or fail and cached `IF [NOT] EXISTS` statements, `RETURNING` cursors left open,
/// savepoints released or rolled back.
struct FailingScript {
    indirect enum Statement: CustomStringConvertible {
        case sql(String)
        /// A statement whose first row is read and whose cursor is then abandoned: it stays open
        /// until the transaction ends (no savepoint can begin, no table can be dropped meanwhile).
        case returning(String)
        case savepoint([Statement], rollsBack: Bool)

        var description: String {
            switch self {
            case .sql(let sql): sql
            case .returning(let sql): "\(sql) -- first row read, cursor left open"
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
        CREATE TABLE plain(a INTEGER PRIMARY KEY AUTOINCREMENT, b INTEGER CHECK (b >= 0));
        CREATE TABLE audit(id INTEGER PRIMARY KEY AUTOINCREMENT, what TEXT);
        CREATE TABLE kw(k INTEGER PRIMARY KEY, v INTEGER NOT NULL, u INTEGER UNIQUE,
            parent_id INTEGER REFERENCES parent(id) ON DELETE CASCADE) WITHOUT ROWID;
        CREATE TABLE kw_ref(id INTEGER PRIMARY KEY, kw_k INTEGER REFERENCES kw(k));
        CREATE TABLE kv_ref(id INTEGER PRIMARY KEY, k TEXT REFERENCES kv(k));
        CREATE TRIGGER plain_kv AFTER INSERT ON plain BEGIN INSERT OR REPLACE INTO kv VALUES ('k' || (NEW.a % 4), NEW.b); END;
        CREATE TRIGGER kw_abort BEFORE INSERT ON kw WHEN NEW.v % 10 = 1 BEGIN
            INSERT INTO audit(what) VALUES ('kw abort'); SELECT RAISE(ABORT, 'kw abort'); END;
        CREATE TRIGGER kw_fail AFTER INSERT ON kw WHEN NEW.v % 10 = 2 BEGIN
            INSERT INTO audit(what) VALUES ('kw fail'); SELECT RAISE(FAIL, 'kw fail'); END;
        CREATE TRIGGER kw_rollback AFTER UPDATE ON kw WHEN NEW.v = 3 BEGIN SELECT RAISE(ROLLBACK, 'kw rollback'); END;
        CREATE TRIGGER kw_ignore BEFORE INSERT ON kw WHEN NEW.v % 10 = 4 BEGIN SELECT RAISE(IGNORE); END;
        CREATE TRIGGER kw_before BEFORE UPDATE ON kw WHEN NEW.v % 10 = 5 BEGIN
            UPDATE kv SET v = v + 1 WHERE k = 'k' || (NEW.k % 4); END;
        CREATE TRIGGER kw_fail_update AFTER UPDATE ON kw WHEN NEW.v % 10 = 6 BEGIN
            INSERT INTO audit(what) VALUES ('kw update'); SELECT RAISE(FAIL, 'kw fail on update'); END;
        CREATE TRIGGER kw_fail_delete BEFORE DELETE ON kw WHEN OLD.v % 10 = 8 BEGIN SELECT RAISE(FAIL, 'kw fail on delete'); END;
        CREATE TRIGGER kw_deleted AFTER DELETE ON kw BEGIN INSERT OR REPLACE INTO kv VALUES ('d' || (OLD.k % 3), OLD.v); END;
        CREATE TRIGGER trig_kw AFTER UPDATE ON trig WHEN NEW.v % 10 = 7 BEGIN
            INSERT OR IGNORE INTO kw(k, v, u) VALUES (NEW.id + 100, NEW.v, NULL); END;
        """

    /// What the schema's triggers and foreign key actions write, declared from its text above
    /// (not asked of SQLite or of change capture): the tables each table's triggers and
    /// foreign key actions write, one step.
    static let triggerWrites: [String: Set<String>] = [
        "parent": ["child", "kw"], "child": ["log"], "trig": ["log", "kw"], "plain": ["kv"], "kw": ["audit", "kv"],
    ]
    /// The tables whose definition or triggers name the `FAIL` conflict resolution.
    static let tablesThatMayFail: Set<String> = ["f", "trig", "kw"]

    /// The tables a statement may write: the one it names and, transitively, those its triggers
    /// and foreign key actions write.
    static func reach(of sql: String) -> Set<String> {
        guard let table = target(of: sql) else { return [] }
        var reached: Set<String> = [table]
        var next = [table]
        while let table = next.popLast() {
            for written in triggerWrites[table] ?? [] where reached.insert(written).inserted { next.append(written) }
        }
        return reached
    }

    /// Whether a statement may run under `FAIL`: its own `OR FAIL`, or a table it may write.
    static func mayFail(_ sql: String) -> Bool {
        sql.contains(" OR FAIL ") || !reach(of: sql).isDisjoint(with: tablesThatMayFail)
    }

    /// The table an INSERT, UPDATE or DELETE names; `nil` for any other statement.
    static func target(of sql: String) -> String? {
        var words = sql.split(separator: " ")[...]
        guard let verb = words.popFirst(), ["INSERT", "UPDATE", "DELETE"].contains(verb) else { return nil }
        if words.first == "OR" { words = words.dropFirst(2) }
        if words.first == "INTO" || words.first == "FROM" { words = words.dropFirst() }
        return words.first.map { String($0.prefix { $0 != "(" }) }
    }

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
        switch Int.random(in: 0..<135, using: &random) {
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
        case 90..<125: return keyedStatement(using: &random, depth: depth)
        default:
            guard depth < 2 else { return .sql("DELETE FROM trig WHERE id = \(id)") }
            let inner = (0..<Int.random(in: 1...3, using: &random)).map { _ in statement(using: &random, depth: depth + 1) }
            return .savepoint(inner, rollsBack: Bool.random(using: &random))
        }
    }

    /// Statements into `WITHOUT ROWID` tables that triggers also write (issue 21), the AUTOINCREMENT
    /// table whose trigger writes one, schema changes that SQLite refuses as they run, and
    /// `RETURNING` cursors left open (at the top level: a savepoint cannot end while one is open).
    private static func keyedStatement(using random: inout SeededGenerator, depth: Int) -> Statement {
        let id = Int.random(in: 1...30, using: &random)
        let other = Int.random(in: 1...30, using: &random)
        let value = Int.random(in: 0...60, using: &random)
        let or = resolution(using: &random)
        let n = Int.random(in: 1...4, using: &random)
        switch Int.random(in: 0..<36, using: &random) {
        case 0..<3:  // issue 21's statement: UNIQUE is violated by the fourth row, or by the first
            return .sql("INSERT\(or) INTO kv(k, v) SELECT 's\(id % 4)' || (a % 3), b FROM plain WHERE a % \(n) = 0")
        case 3..<5: return .sql("INSERT\(or) INTO plain(b) SELECT v - \(value % 8) FROM trig WHERE id % \(n + 1) = 0")
        case 5..<7: return .sql("INSERT\(or) INTO plain(b) VALUES (\(value)), (\(other - 4))")
        case 7..<10:
            return .sql(
                "INSERT\(or) INTO kw(k, v, u, parent_id) SELECT id + \(id), v + \(value), id % \(n + 3), "
                    + "CASE WHEN id % 3 = 0 THEN id END FROM trig WHERE id % 3 = \(other % 3)")
        case 10..<12:
            return .sql("INSERT\(or) INTO kw(k, v, u) VALUES (\(id), \(value), \(other % 8)), (\(other), \(value + n), \(id % 8))")
        case 12..<15:
            let v = Int.random(in: 0..<20, using: &random) == 0 ? "3" : "v + \(value % 7)"
            return .sql("UPDATE\(or) kw SET v = \(v), u = u + \(id % 3) WHERE k % 3 = \(other % 3)")
        case 15..<17: return .sql("UPDATE\(or) kv SET k = 'k' || ((length(v) + \(id)) % 4) WHERE k >= 'k\(id % 4)'")
        case 17..<19: return .sql("DELETE FROM kw WHERE k % 4 = \(id % 4)")
        case 19..<20: return .sql("DELETE FROM kv WHERE k IN ('k\(id % 4)', 'd\(id % 3)') OR k LIKE 's\(other % 4)%'")
        case 20..<22: return .sql("INSERT\(or) INTO kw_ref(id, kw_k) VALUES (\(id), \(other))")
        case 22..<24: return .sql("INSERT\(or) INTO kv_ref(id, k) VALUES (\(id), 'k\(other % 4)')")
        case 24..<25: return .sql("DELETE FROM \(["kw_ref", "kv_ref", "audit"][id % 3]) WHERE id % 3 = \(other % 3)")
        case 25..<26: return .sql("DELETE FROM plain WHERE a % 2 = \(id % 2)")
        case 26..<29:
            return .sql(
                [
                    "CREATE UNIQUE INDEX IF NOT EXISTS kw_v ON kw(v)", "DROP INDEX IF EXISTS kw_v",
                    "ALTER TABLE extra\(id % 3) ADD COLUMN c INTEGER NOT NULL", "DROP TABLE extra\(id % 3)",
                ][other % 4])
        default:
            guard depth == 0 else { return .sql("DELETE FROM kw WHERE k = \(id)") }
            return .returning(
                [
                    "INSERT\(or) INTO kw(k, v, u) VALUES (\(id), \(value), \(other % 8)) RETURNING k",
                    "UPDATE\(or) kw SET v = v + 1 WHERE k % 2 = \(id % 2) RETURNING k, v",
                    "DELETE FROM child WHERE id % 5 = \(id % 5) RETURNING id",
                    "INSERT\(or) INTO plain(b) VALUES (\(value)) RETURNING a",
                ][other % 4])
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
/// would, and counts what happened. After each statement it reads the `WITHOUT ROWID` tables,
/// so that the checker knows which statements changed them.
struct ScriptRunner {
    /// What one statement did, as the runner saw it.
    struct Record {
        let sql: String
        let failed: Bool
        /// The `WITHOUT ROWID` tables whose rows differ after the statement from before it.
        let changedKeyedTables: Set<String>
        /// Whether a savepoint rolled back took the statement back.
        var isUndone = false
    }

    let db: Database
    var statistics: [String: Int] = [:]
    /// Whether a schema statement succeeded outside any savepoint later rolled back.
    var keptSchemaStatement = false
    private(set) var records: [Record] = []
    /// The `RETURNING` cursors left open, kept alive until the transaction ends.
    private var openCursors: [RowCursor] = []
    private var keyedTables: [String: Set<String>]

    init(db: Database) throws {
        self.db = db
        keyedTables = try DatabaseSnapshot.keyedTables(of: db)
    }

    mutating func run(_ statements: [FailingScript.Statement]) throws {
        for statement in statements { try run(statement) }
    }

    private mutating func run(_ statement: FailingScript.Statement) throws {
        switch statement {
        case .sql(let sql):
            try record(sql) { db in
                // Schema statements have fixed texts and come from the statement cache; the rest, with
                // literal values, would only fill it.
                if Self.isSchemaStatement(sql) { try db.execute(sql: sql) } else { try db.execute(script: sql) }
                return nil
            }
        case .returning(let sql):
            try record(sql) { db in
                var cursor = try db.cursor(sql: sql)
                return try cursor.next() != nil ? cursor : nil
            }
        case .savepoint(let inner, let rollsBack):
            try runSavepoint(inner, rollsBack: rollsBack)
        }
    }

    /// Runs one statement through `body`, counting its outcome and recording what it changed;
    /// keeps the cursor `body` may leave open.
    private mutating func record(_ sql: String, _ body: (Database) throws -> RowCursor?) throws {
        var failed = false
        do {
            if let cursor = try body(db) { openCursors.append(cursor) }
            if Self.isSchemaStatement(sql) { keptSchemaStatement = true }
            statistics["statements succeeded", default: 0] += 1
        } catch let error as StoreError where error.code != .misuse {
            failed = true
            statistics["statements failed: \(Self.kind(of: sql, error))", default: 0] += 1
        }
        let before = keyedTables
        keyedTables = try DatabaseSnapshot.keyedTables(of: db)
        let changed = Set(before.keys).union(keyedTables.keys).filter { before[$0] != keyedTables[$0] }
        records.append(Record(sql: sql, failed: failed, changedKeyedTables: changed))
    }

    private mutating func runSavepoint(_ inner: [FailingScript.Statement], rollsBack: Bool) throws {
        struct Undo: Error {}
        let keptBefore = keptSchemaStatement
        let firstRecord = records.count
        do {
            try db.transaction {
                try run(inner)
                if rollsBack { throw Undo() }
            }
        } catch is Undo {
            keptSchemaStatement = keptBefore
            for index in firstRecord..<records.count { records[index].isUndone = true }
            keyedTables = try DatabaseSnapshot.keyedTables(of: db)
            statistics["savepoints rolled back", default: 0] += 1
        } catch let error as StoreError where error.code == .busy && !openCursors.isEmpty {
            statistics["savepoints refused: a RETURNING cursor is open", default: 0] += 1
        }
    }

    private static func isSchemaStatement(_ sql: String) -> Bool {
        sql.hasPrefix("CREATE") || sql.hasPrefix("DROP") || sql.hasPrefix("ALTER")
    }

    private static func kind(of sql: String, _ error: StoreError) -> String {
        let resolution = FailingScript.resolutions.dropFirst().first { sql.contains($0 + " ") }?.trimmingCharacters(in: .whitespaces)
        let kind = sql.contains("RETURNING") ? "RETURNING" : isSchemaStatement(sql) ? "schema" : resolution ?? "default"
        return "\(kind) \(error.code)"
    }
}
