-- Lists of notes, which people share through a sync server (store demo's sync scene:
-- `--tables note,note_list --share-roots note_list --share-paths note.list_id=note_list`).
-- A note in a list belongs to it: sharing a list shares its notes, and revoking it takes them
-- away. A note without a list is its account's alone.
CREATE TABLE note_list (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL DEFAULT ''
);
ALTER TABLE note ADD COLUMN list_id TEXT REFERENCES note_list(id) ON DELETE CASCADE;
CREATE INDEX note_by_list ON note(list_id);

-- down
-- SQLite cannot drop a column that is a foreign key: the table is rebuilt without it.
CREATE TABLE old_note (
    id TEXT PRIMARY KEY NOT NULL,
    text TEXT NOT NULL DEFAULT '',
    color TEXT NOT NULL DEFAULT 'yellow'
);
INSERT INTO old_note (id, text, color) SELECT id, text, color FROM note;
DROP TABLE note;
ALTER TABLE old_note RENAME TO note;
DROP TABLE note_list;
