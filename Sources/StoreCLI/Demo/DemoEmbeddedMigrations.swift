// Generated from Migrations/*.sql: the example schema, for `store demo` run where the
// Migrations folder is not. DemoEmbeddedMigrationsTests checks that it equals the files;
// regenerate it when they change.
import SQLiteStore

/// The example migrations, file name and text, in version order.
enum DemoEmbeddedMigrations {
    static let files: [(name: String, text: String)] = [
        (
            "0001_create_list.sql",
            #"""
            -- To-do lists.
            CREATE TABLE list (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
            );

            -- down
            DROP TABLE list;

            """#
        ),
        (
            "0002_create_item.sql",
            #"""
            -- The items of a list. Deleting a list deletes its items.
            CREATE TABLE item (
                id INTEGER PRIMARY KEY,
                list_id INTEGER NOT NULL REFERENCES list(id) ON DELETE CASCADE,
                title TEXT NOT NULL,
                category TEXT NOT NULL DEFAULT '',
                position INTEGER NOT NULL DEFAULT 0,
                due_date TEXT,  -- YYYY-MM-DD, or NULL
                done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1))
            );
            CREATE INDEX item_list_position ON item(list_id, position);
            CREATE INDEX item_due_date ON item(due_date) WHERE due_date IS NOT NULL;

            -- down
            DROP TABLE item;

            """#
        ),
        (
            "0003_rebuild_list.sql",
            #"""
            -- Lists get a position and may no longer have a blank name. SQLite cannot add a CHECK
            -- constraint to a table, so this rebuilds it with the 12-step procedure
            -- (https://www.sqlite.org/lang_altertable.html#otheralter).
            --
            -- item.list_id refers to list with ON DELETE CASCADE: with foreign keys on, DROP TABLE list
            -- would delete every item. The migrator turns foreign keys off around the transaction and
            -- runs PRAGMA foreign_key_check before committing, so the items stay and stay valid.
            CREATE TABLE new_list (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL CHECK (trim(name) <> ''),
                position INTEGER NOT NULL DEFAULT 0,
                created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
            );
            INSERT INTO new_list (id, name, position, created_at)
                SELECT id, CASE WHEN trim(name) = '' THEN 'Untitled' ELSE name END, id, created_at FROM list;
            DROP TABLE list;
            ALTER TABLE new_list RENAME TO list;
            CREATE INDEX list_position ON list(position);

            -- down
            CREATE TABLE old_list (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
            );
            INSERT INTO old_list (id, name, created_at) SELECT id, name, created_at FROM list;
            DROP TABLE list;
            ALTER TABLE old_list RENAME TO list;

            """#
        ),
        (
            "0004_item_notes_and_summary.sql",
            #"""
            -- Items get free-form notes; a view counts each list's items and finished items.
            ALTER TABLE item ADD COLUMN notes TEXT NOT NULL DEFAULT '';

            CREATE VIEW list_summary AS
                SELECT list.id AS list_id, list.name AS name,
                       count(item.id) AS item_count, coalesce(sum(item.done), 0) AS done_count
                FROM list LEFT JOIN item ON item.list_id = list.id
                GROUP BY list.id;

            -- down
            DROP VIEW list_summary;
            ALTER TABLE item DROP COLUMN notes;

            """#
        ),
    ]

    /// A migrator with the embedded migrations.
    static func migrator() throws -> Migrator {
        var migrator = Migrator()
        for file in files {
            let version = Int(file.name.prefix(4)) ?? 0
            try migrator.add(Migration(version: version, name: String(file.name.dropFirst(5).dropLast(4)), sql: file.text))
        }
        return migrator
    }
}
