-- 0010_saved_tab_groups.sql
-- compatibility: additive (a new table only: a binary that knows only 0001 to
-- 0009 reads and writes the store; it sees each saved group as one more window
-- holding that group, so a rollback loses none of them)
--
-- Saved tab groups: a group closed and kept, to reopen later (Firefox's "Save
-- and close group", Chrome's saved groups). See TabListRules.md, "Saved groups".
--
-- * Each saved group is a browser of its own, named here, holding the group's
--   tabs (with their histories and engine state) and its `tab_groups` row (its
--   title, colour and collapsed state). Saving and reopening move rows; a
--   binary that knows this table never lists that browser as a window, never
--   syncs it and never counts it among recently closed entries.
-- * Deleting a saved group deletes its browser, and with it its tabs.

CREATE TABLE saved_groups (
    browser_id TEXT PRIMARY KEY NOT NULL REFERENCES browsers(id) ON DELETE CASCADE,
    group_id TEXT NOT NULL UNIQUE CHECK (length(group_id) = 36),
    source_browser_id TEXT CHECK (source_browser_id IS NULL OR length(source_browser_id) = 36),
    saved_at TEXT NOT NULL
);
