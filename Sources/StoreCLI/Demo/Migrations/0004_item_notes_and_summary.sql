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
