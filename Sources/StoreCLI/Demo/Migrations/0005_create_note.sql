-- Notes that devices share through a sync server (store demo's sync scene, `--tables note`).
-- A synced table needs keys that no two devices can both make, so a note's key is a UUID in
-- text, where list and item have rowids.
CREATE TABLE note (
    id TEXT PRIMARY KEY NOT NULL,
    text TEXT NOT NULL DEFAULT '',
    color TEXT NOT NULL DEFAULT 'yellow'
);

-- down
DROP TABLE note;
