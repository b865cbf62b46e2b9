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
