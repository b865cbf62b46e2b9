import Foundation
import Testing

@testable import SQLiteStoreCore

/// The migration file format: sections, directives, statement lines, checksums, warnings.
@Suite("Migration file format")
struct MigrationFileFormatTests {
    @Test("SHA-256 matches the FIPS 180-4 examples")
    func sha256() {
        #expect(SHA256.hexDigest(of: Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hexDigest(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hexDigest(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hexDigest(of: [UInt8](repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("CRLF, CR and a byte order mark do not change the checksum; any other edit does")
    func checksumNormalization() throws {
        let text = "CREATE TABLE t(x);\n-- down\nDROP TABLE t;\n"
        let base = try Migration(version: 1, name: "t", sql: text)
        let crlf = try Migration(version: 1, name: "t", sql: text.replacingOccurrences(of: "\n", with: "\r\n"))
        let cr = try Migration(version: 1, name: "t", sql: text.replacingOccurrences(of: "\n", with: "\r"))
        let bom = try Migration(version: 1, name: "t", sql: "\u{FEFF}" + text)
        let edited = try Migration(version: 1, name: "t", sql: text.replacingOccurrences(of: "(x)", with: "(y)"))
        #expect(base.checksum.count == 64)
        #expect([crlf.checksum, cr.checksum, bom.checksum] == [base.checksum, base.checksum, base.checksum])
        #expect(edited.checksum != base.checksum)
    }

    @Test("A -- down line splits the up and down sections; statements know their lines")
    func sections() throws {
        let migration = try Migration(
            version: 3, name: "s",
            sql: """
                -- a comment
                CREATE TABLE a(x TEXT DEFAULT 'semi;colon'); CREATE TABLE b(y);
                /* block
                   comment */ INSERT INTO a
                     VALUES ('two;lines');
                CREATE TRIGGER a_insert AFTER INSERT ON a BEGIN
                    INSERT INTO b VALUES (1);
                    INSERT INTO b VALUES (2);
                END;
                  -- DOWN
                DROP TABLE a;
                DROP TABLE b
                """)
        guard case .sql(let up) = migration.up, case .sql(let down)? = migration.down else {
            Issue.record("expected SQL sections")
            return
        }
        #expect(up.statements.map(\.line) == [2, 2, 4, 6])
        #expect(up.statements[0].sql == "CREATE TABLE a(x TEXT DEFAULT 'semi;colon');")
        #expect(up.statements[2].sql == "INSERT INTO a\n     VALUES ('two;lines');")
        #expect(up.statements[3].sql.hasSuffix("END;"))
        #expect(down.statements.map(\.line) == [11, 12])
        #expect(down.statements[1].sql == "DROP TABLE b")
        #expect(migration.isReversible && migration.usesTransaction)
    }

    @Test("A down section without statements makes the migration irreversible")
    func emptyDown() throws {
        let withComment = try Migration(version: 1, name: "a", sql: "CREATE TABLE a(x);\n-- down\n-- nothing to undo\n")
        let without = try Migration(version: 1, name: "a", sql: "CREATE TABLE a(x);\n")
        #expect(!withComment.isReversible)
        #expect(!without.isReversible)
    }

    @Test("-- store:no-transaction on the first line runs the file outside a transaction")
    func noTransactionDirective() throws {
        let migration = try Migration(version: 1, name: "vacuum", sql: "-- store:no-transaction\nVACUUM;\nBEGIN; COMMIT;\n")
        #expect(!migration.usesTransaction)
        #expect(migration.warnings.isEmpty)
    }

    @Test(
        "Malformed files are refused with their line",
        arguments: [
            ("-- store:no-transactions\nSELECT 1;", 1),
            ("CREATE TABLE a(x);\n-- down\nDROP TABLE a;\n-- down\n", 4),
            ("CREATE TABLE a(x);\nCOMMIT;\nCREATE TABLE b(x);", 2),
            ("CREATE TABLE a(x);\n-- down\n  begin transaction;\nDROP TABLE a;", 3),
            ("SAVEPOINT s;\nROLLBACK;", 2),
            ("END TRANSACTION;", 1),
        ])
    func malformed(text: String, line: Int) {
        #expect {
            try Migration(version: 1, name: "bad", sql: text, path: "Migrations/0001_bad.sql")
        } throws: { error in
            guard case MigrationError.invalidMigration(let location, let errorLine, _) = error else { return false }
            return location == "Migrations/0001_bad.sql" && errorLine == line
        }
    }

    @Test("ROLLBACK TO a savepoint stays inside the transaction and is allowed")
    func rollbackToSavepoint() throws {
        let migration = try Migration(
            version: 1, name: "s", sql: "SAVEPOINT s;\nROLLBACK TO s;\nROLLBACK TRANSACTION TO SAVEPOINT s;\nRELEASE s;")
        #expect(migration.usesTransaction)
    }

    @Test("Statements SQLite ignores or refuses inside a transaction are warned about, with their lines")
    func warnings() throws {
        let migration = try Migration(
            version: 1, name: "w",
            sql: """
                PRAGMA foreign_keys = OFF;
                CREATE TABLE a(x);
                PRAGMA main.journal_mode = WAL;
                -- down
                VACUUM;
                """)
        #expect(migration.warnings.map(\.line) == [1, 3, 5])
        #expect(migration.warnings[0].message.contains("foreign_keys"))
        #expect(migration.warnings[1].message.contains("journal_mode"))
        #expect(migration.warnings[2].message.contains("VACUUM"))
    }

    @Test("sql(_:) gives the statements a dry run prints")
    func sqlText() throws {
        let migration = try Migration(version: 1, name: "a", sql: "-- make a\nCREATE TABLE a(x);\n\n-- down\nDROP TABLE a;\n")
        #expect(migration.sql(.up) == "CREATE TABLE a(x);")
        #expect(migration.sql(.down) == "DROP TABLE a;")
        #expect(Migration(version: 2, name: "swift") { _ in }.sql(.up) == nil)
    }
}
