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
