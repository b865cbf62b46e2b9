import PostgresNIO

/// The statement that stores a push (``PushedChanges/insertNew(account:schemaVersion:on:logger:)``),
/// prepared once per connection: in one round trip it inserts the changes whose id the account
/// does not hold yet, in the push's order, notes each device's highest stored sequence and that
/// it was seen, and announces the account on ``ChangeLog/channel`` if anything was inserted (the
/// announcement is sent when the transaction commits). It answers how many changes it inserted.
///
/// A change at or below its device's highest stored sequence was stored before (devices push
/// in order), even if compaction has removed it since: it is not stored again. Every part of
/// the statement reads the rows as they were when it began (PostgreSQL's data-modifying `WITH`),
/// so the devices' sequences it notes do not hide the changes it inserts.
///
/// A named prepared statement lives on its connection: a pooler between the server and
/// PostgreSQL must keep each server connection on one PostgreSQL connection (session pooling)
/// or track prepared statements (PgBouncer 1.21 and later, `max_prepared_statements`).
struct NewChangesStatement: PostgresPreparedStatement {
    static let sql = """
        WITH pushed AS (
            SELECT * FROM unnest($3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bigint[])
                WITH ORDINALITY AS u(d, s, t, k, c, v, h, n)
        ), inserted AS (
            INSERT INTO sync_changes(account, device, device_seq, schema_version, tbl, pk, col, value, hlc)
            SELECT $1, d, s, $2, t, k, NULLIF(c, ''), CASE WHEN c = '' THEN NULL ELSE v END, h
            FROM pushed LEFT JOIN sync_devices known ON known.account = $1 AND known.device = pushed.d
            WHERE pushed.s > coalesce(known.pushed_through, 0)
            ORDER BY n
            ON CONFLICT (account, device, device_seq) DO NOTHING
            RETURNING seq
        ), noted AS (
            INSERT INTO sync_devices(account, device, pushed_through)
            SELECT $1, d, max(s) FROM pushed GROUP BY d
            ON CONFLICT (account, device) DO UPDATE
            SET pushed_through = greatest(sync_devices.pushed_through, excluded.pushed_through), last_seen = now()
        ), announced AS (
            SELECT pg_notify($10, $1::text) FROM (SELECT FROM inserted LIMIT 1) AS first_inserted
        )
        SELECT (SELECT count(*) FROM inserted), (SELECT count(*) FROM announced)
        """

    /// How many changes were inserted.
    typealias Row = Int64

    let account: Int64
    let schemaVersion: Int64
    let changes: PushedChanges

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 10)
        bindings.append(account)
        bindings.append(schemaVersion)
        changes.appendColumns(to: &bindings)
        bindings.append(ChangeLog.channel)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (inserted, _) = try row.decode((Int64, Int64).self)
        return inserted
    }
}
