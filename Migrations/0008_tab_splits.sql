-- 0008_tab_splits.sql
-- compatibility: additive (a new table only: a binary that knows only 0001 to
-- 0007 reads and writes the store; it does not see splits, and a split whose
-- tabs it separates is no longer whole, which `check` reports and the newer
-- binary leaves out when it loads the list)
--
-- Split views: two neighbouring tabs of one browser shown side by side as one
-- unit (TabListRules.md, Splits).
--
-- * One row a split, naming its tabs in list order, its ratio (the first
--   tab's share) and its layout.
-- * The tabs' own rows are untouched: a split is read beside the list, and a
--   write that moves no split tab writes no row here.
-- * A split goes with either tab (`ON DELETE CASCADE`), and follows a tab
--   whose identifier changes (`ON UPDATE CASCADE`).
-- * While sync is on, a split's tabs' records carry it (the triggers below mark
--   them, as the triggers of 0004 mark a changed tab).
-- * A split is whole when its tabs are neighbours in `sort_key` order, both
--   pinned or neither, in the same group or none. A binary that knows this
--   table keeps every split whole; an older one may not, so readers check.

CREATE TABLE tab_splits (
    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36 AND id = lower(id)),
    browser_id TEXT NOT NULL REFERENCES browsers(id) ON DELETE CASCADE,
    first_tab_id TEXT NOT NULL UNIQUE REFERENCES tabs(id) ON DELETE CASCADE ON UPDATE CASCADE,
    second_tab_id TEXT NOT NULL UNIQUE REFERENCES tabs(id) ON DELETE CASCADE ON UPDATE CASCADE,
    ratio REAL NOT NULL DEFAULT 0.5 CHECK (ratio BETWEEN 0 AND 1),
    layout TEXT NOT NULL DEFAULT 'vertical' CHECK (layout IN ('vertical', 'horizontal')),
    CHECK (first_tab_id <> second_tab_id)
);
CREATE INDEX tab_splits_by_browser ON tab_splits(browser_id);

-- Splits ride on each device's tab records while sync is on: making, changing
-- or ending a split marks both its tabs for upload, as a change of their rows
-- would.
CREATE TRIGGER sync_after_split_insert AFTER INSERT ON tab_splits
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
BEGIN
    INSERT INTO sync_outbox (kind, local_id, marked_at)
    SELECT kind, id, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM sync_tab_kinds
    WHERE id IN (new.first_tab_id, new.second_tab_id)
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER sync_after_split_update AFTER UPDATE ON tab_splits
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
BEGIN
    INSERT INTO sync_outbox (kind, local_id, marked_at)
    SELECT kind, id, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM sync_tab_kinds
    WHERE id IN (old.first_tab_id, old.second_tab_id, new.first_tab_id, new.second_tab_id)
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER sync_after_split_delete AFTER DELETE ON tab_splits
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
BEGIN
    INSERT INTO sync_outbox (kind, local_id, marked_at)
    SELECT kind, id, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM sync_tab_kinds
    WHERE id IN (old.first_tab_id, old.second_tab_id)
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
END;

-- Every split of an open window, with its tabs' places.
CREATE VIEW open_splits AS
SELECT
    s.browser_id,
    s.id AS split_id,
    f.tab_index AS first_tab_index,
    s.first_tab_id,
    s.second_tab_id,
    s.ratio,
    s.layout,
    (f.is_active OR n.is_active) AS is_active,
    (n.tab_index IS f.tab_index + 1 AND n.is_pinned IS f.is_pinned AND n.group_id IS f.group_id) AS is_whole
FROM tab_splits AS s
JOIN open_tabs AS f ON f.tab_id = s.first_tab_id
JOIN open_tabs AS n ON n.tab_id = s.second_tab_id;
