-- The to-do lists. A synced table needs a key that no two devices can both make: a UUID in
-- text, which any device makes offline (a rowid key would collide across devices).
CREATE TABLE lists (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL DEFAULT ''
);

-- down
DROP TABLE lists;
