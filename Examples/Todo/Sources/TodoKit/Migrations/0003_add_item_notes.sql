-- The app's second version gives items notes. The migration is additive for sync (a new
-- column with a default), so devices still on the first version keep syncing with those that
-- upgraded: they send the columns they know and are sent only those.
ALTER TABLE items ADD COLUMN notes TEXT NOT NULL DEFAULT '';

-- down
ALTER TABLE items DROP COLUMN notes;
