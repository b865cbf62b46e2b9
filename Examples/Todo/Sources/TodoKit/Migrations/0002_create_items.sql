-- The items of the lists. Deleting a list deletes its items (and the store publishes each
-- of those deletes with the list's, so the live list drops them in the same change).
CREATE TABLE items (
    id TEXT PRIMARY KEY NOT NULL,
    list_id TEXT NOT NULL REFERENCES lists(id) ON DELETE CASCADE,
    title TEXT NOT NULL DEFAULT '',
    done INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX items_by_list ON items(list_id);

-- down
DROP TABLE items;
