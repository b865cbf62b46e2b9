import Foundation
import Logging
import PostgresNIO
import SQLiteStoreSyncProtocol

/// The server's state in PostgreSQL: accounts, their tokens (hashed), and every change devices
/// pushed, numbered by a server sequence. Every statement binds its values.
struct ChangeLog: Sendable {
    let client: PostgresClient
    let logger: Logger

    /// The channel on which a push announces an account's new changes to every server process.
    static let channel = "store_sync_changes"

    private static let schema = [
        """
        CREATE TABLE IF NOT EXISTS sync_accounts(
            id bigserial PRIMARY KEY, name text NOT NULL UNIQUE, created timestamptz NOT NULL DEFAULT now())
        """,
        """
        CREATE TABLE IF NOT EXISTS sync_tokens(
            hash bytea PRIMARY KEY, account bigint NOT NULL REFERENCES sync_accounts(id) ON DELETE CASCADE,
            created timestamptz NOT NULL DEFAULT now())
        """,
        """
        CREATE TABLE IF NOT EXISTS sync_changes(
            seq bigserial PRIMARY KEY,
            account bigint NOT NULL REFERENCES sync_accounts(id) ON DELETE CASCADE,
            device text NOT NULL, device_seq bigint NOT NULL, schema_version bigint NOT NULL,
            tbl text NOT NULL, pk text NOT NULL, col text, value text, hlc bigint NOT NULL,
            received timestamptz NOT NULL DEFAULT now(),
            UNIQUE (account, device, device_seq))
        """,
        "CREATE INDEX IF NOT EXISTS sync_changes_by_account ON sync_changes(account, seq)",
        // Snapshots read an account's rows in (table, key) order, by bytes.
        "CREATE INDEX IF NOT EXISTS sync_changes_by_row ON sync_changes(account, tbl COLLATE \"C\", pk COLLATE \"C\", seq)",
        // Docs/SyncServerSchema.md, "Bounded storage".
        "ALTER TABLE sync_accounts ADD COLUMN IF NOT EXISTS pruned_through bigint NOT NULL DEFAULT 0",
        "ALTER TABLE sync_accounts ADD COLUMN IF NOT EXISTS pruned_at timestamptz",
        "ALTER TABLE sync_accounts ADD COLUMN IF NOT EXISTS compacted_through bigint NOT NULL DEFAULT 0",
        """
        CREATE TABLE IF NOT EXISTS sync_devices(
            account bigint NOT NULL REFERENCES sync_accounts(id) ON DELETE CASCADE, device text NOT NULL,
            first_seen timestamptz NOT NULL DEFAULT now(), last_seen timestamptz NOT NULL DEFAULT now(),
            pushed_through bigint NOT NULL DEFAULT 0,
            PRIMARY KEY (account, device))
        """,
        // Devices that pushed before `sync_devices` existed: each one's highest stored change.
        // Once per database: the table is empty only until its first push or pull.
        """
        INSERT INTO sync_devices(account, device, pushed_through)
        SELECT account, device, max(device_seq) FROM sync_changes
        WHERE NOT EXISTS (SELECT 1 FROM sync_devices) GROUP BY account, device
        """,
        // Docs/SyncServerSchema.md, "Sharing": each shareable row's owner, parent and root.
        """
        CREATE TABLE IF NOT EXISTS sync_rows(
            owner bigint NOT NULL REFERENCES sync_accounts(id) ON DELETE CASCADE, tbl text NOT NULL, pk text NOT NULL,
            parent_tbl text, parent_pk text, root text,
            PRIMARY KEY (owner, tbl, pk))
        """,
        // The parent key each of the row's paths names, in the order of its table's paths: a JSON
        // array of texts and nulls.
        "ALTER TABLE sync_rows ADD COLUMN IF NOT EXISTS links text",
        "CREATE INDEX IF NOT EXISTS sync_rows_by_parent ON sync_rows(owner, parent_tbl, parent_pk) WHERE parent_tbl IS NOT NULL",
        "CREATE INDEX IF NOT EXISTS sync_rows_by_root ON sync_rows(owner, root COLLATE \"C\", tbl COLLATE \"C\", pk COLLATE \"C\")",
        "CREATE INDEX IF NOT EXISTS sync_rows_by_key ON sync_rows(tbl, pk)",
        """
        CREATE TABLE IF NOT EXISTS sync_shares(
            owner bigint NOT NULL REFERENCES sync_accounts(id) ON DELETE CASCADE, root text NOT NULL,
            member bigint NOT NULL REFERENCES sync_accounts(id) ON DELETE CASCADE,
            role text NOT NULL CHECK (role IN ('reader', 'writer')),
            PRIMARY KEY (owner, root, member))
        """,
        "CREATE INDEX IF NOT EXISTS sync_shares_by_member ON sync_shares(member)",
        // A retried push finds its changes stored in other accounts' data through their devices.
        "CREATE INDEX IF NOT EXISTS sync_devices_by_device ON sync_devices(device)",
        // Numbered from the changes' sequence, so that a pull meets them in order with the changes.
        """
        CREATE TABLE IF NOT EXISTS sync_share_events(
            seq bigint PRIMARY KEY DEFAULT nextval(pg_get_serial_sequence('sync_changes', 'seq')),
            owner bigint NOT NULL REFERENCES sync_accounts(id) ON DELETE CASCADE,
            kind text NOT NULL CHECK (kind IN ('grant', 'revoke', 'row')),
            member bigint, root text, tbl text, pk text, old_root text, new_root text)
        """,
        "CREATE INDEX IF NOT EXISTS sync_share_events_by_member ON sync_share_events(member, seq) WHERE member IS NOT NULL",
        "CREATE INDEX IF NOT EXISTS sync_share_events_by_owner ON sync_share_events(owner, seq) WHERE kind = 'row'",
        """
        CREATE TABLE IF NOT EXISTS sync_refusals(
            device text NOT NULL, device_seq bigint NOT NULL,
            account bigint NOT NULL REFERENCES sync_accounts(id) ON DELETE CASCADE, owner bigint NOT NULL,
            tbl text NOT NULL, pk text NOT NULL, reason text NOT NULL, message text NOT NULL,
            received timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (device, device_seq))
        """,
    ]

    /// The advisory lock that serializes schema creation between processes starting together
    /// (negative: account locks use the account's positive id).
    private static let schemaLock: Int64 = -1

    /// Creates the tables that do not exist yet.
    func createSchema() async throws {
        try await client.withTransaction(logger: logger) { connection in try await Self.createSchema(on: connection, logger: logger) }
    }

    /// Creates the tables that do not exist yet, in `connection`'s transaction.
    static func createSchema(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(\(Self.schemaLock))", logger: logger)
        for statement in Self.schema {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
    }

    /// Makes a token for the account named `name` (created if new) in `connection`'s
    /// transaction and returns it; only its SHA-256 hash is stored.
    static func addToken(account name: String, on connection: PostgresConnection, logger: Logger) async throws -> String {
        var generator = SystemRandomNumberGenerator()
        let token = "sst_" + (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        let rows = try await connection.query(
            """
            INSERT INTO sync_accounts(name) VALUES (\(name))
            ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id
            """, logger: logger)
        var account: Int64?
        for try await id in rows.decode(Int64.self) { account = id }
        guard let account else { throw SyncServerSetupError("the account \(name) could not be created") }
        try await connection.query(
            "INSERT INTO sync_tokens(hash, account) VALUES (sha256(convert_to(\(token), 'UTF8')), \(account))",
            logger: logger)
        return token
    }

    /// The account a token grants, or nil for a token the server never issued.
    func account(forToken token: String) async throws -> Int64? {
        let rows = try await client.query(
            "SELECT account FROM sync_tokens WHERE hash = sha256(convert_to(\(token), 'UTF8'))", logger: logger)
        for try await account in rows.decode(Int64.self) { return account }
        return nil
    }

    /// Stores the changes not stored before (by device and device sequence) and returns how
    /// many were new; announces them on ``channel`` when the transaction commits. A change
    /// stored before must come again with the same contents (a replay): other contents under
    /// its id refuse the whole push with ``SyncWireError/Code/forkedDevice``, since dropping them
    /// as replays would lose them.
    ///
    /// One account's pushes are serialized by an advisory lock held to the commit, so that the
    /// account's server sequence numbers become visible in increasing order: a pull never sees
    /// a change while an earlier-numbered one of the same account is still uncommitted, and a
    /// cursor never skips one.
    func store(_ changes: [SyncWireChange], schemaVersion: Int64, account: Int64) async throws -> Int {
        let pushed = try PushedChanges(changes)
        return try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(account))", logger: logger)
            let inserted = try await pushed.insertNew(account: account, schemaVersion: schemaVersion, on: connection, logger: logger)
            // Only a push with ids held before can give one to other contents: it is looked for
            // then, and undoes the whole push (thrown: the transaction rolls back).
            if inserted < pushed.count, let reused = try await pushed.firstReusedID(account: account, on: connection, logger: logger) {
                throw SyncFailure(
                    .forkedDevice,
                    "change \(reused.sequence) of device \(reused.device) is stored with other contents: this database is a "
                        + "copy of another device's (a restored backup, a copied file), and both wrote under one device id")
            }
            return inserted
        }
    }

    /// Runs `body` in a transaction of its own; a ``SyncFailure`` it throws, which rolls the
    /// transaction back, is thrown as it is (not wrapped in a `PostgresTransactionError`), so
    /// that the device gets its reason.
    func transaction<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        do {
            return try await client.withTransaction(logger: logger) { connection in try await body(connection) }
        } catch let error as PostgresTransactionError {
            throw (error.closureError as? SyncFailure) ?? error
        }
    }

    /// The account's changes after `cursor` in server order, up to `limit`, and whether more follow.
    func changes(account: Int64, after cursor: Int64, limit: Int) async throws -> (changes: [StoredChange], more: Bool) {
        let rows = try await client.query(
            """
            SELECT seq, device, device_seq, schema_version, tbl, pk, col, value, hlc FROM sync_changes
            WHERE account = \(account) AND seq > \(cursor) ORDER BY seq LIMIT \(limit + 1)
            """, logger: logger)
        var changes: [StoredChange] = []
        for try await (seq, device, deviceSequence, version, table, key, column, value, hlc) in rows.decode(
            (Int64, String, Int64, Int64, String, String, String?, String?, Int64).self)
        {
            if changes.count == limit { return (changes, true) }
            let operation: SyncWireChange.Operation =
                if let column, let value {
                    .set(column: column, value: try SyncWireValue(json: Data(value.utf8)))
                } else {
                    .delete
                }
            let change = SyncWireChange(
                device: device, sequence: deviceSequence, table: table,
                key: try SyncWireValue(json: Data(key.utf8)), operation: operation, hlc: hlc)
            changes.append(StoredChange(serverSequence: seq, schemaVersion: version, change: change))
        }
        return (changes, false)
    }
}

/// A change as the server stored it.
struct StoredChange: Sendable {
    /// Its place in the server's order (the cursor after it).
    let serverSequence: Int64
    /// The schema version it was made under.
    let schemaVersion: Int64
    /// The change.
    let change: SyncWireChange
}
