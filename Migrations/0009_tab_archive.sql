-- 0009_tab_archive.sql
-- compatibility: additive (new tables only: a binary that knows only 0001 to
-- 0008 reads and writes the store; it sees the archive as one more window
-- holding the archived tabs, so a rollback loses none of them)
--
-- Archived tabs: tabs unused for a while leave their window's list but are
-- kept, with their histories and engine state (Chrome's inactive tabs, Arc's
-- archive). See TabListRules.md, "Archived tabs".
--
-- * The archive is a browser of its own, named here: archiving moves a tab's
--   row to it (browser, order and group columns only), so no history entry or
--   engine-state blob is read or written. A binary that knows this table never
--   lists that browser as a window, never syncs it and never exports it as one.
-- * `archived_tabs` keeps what a restore needs: the window, index, opener and
--   group the tab had (the group's title and colour too, since archiving may
--   empty and so delete it) and when it was archived. The opener is data, not
--   a link: tabs still open whose opener was archived lost it, as on a close.

CREATE TABLE tab_archives (
    browser_id TEXT PRIMARY KEY NOT NULL REFERENCES browsers(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL
);

CREATE TABLE archived_tabs (
    tab_id TEXT PRIMARY KEY NOT NULL REFERENCES tabs(id) ON DELETE CASCADE,
    former_browser_id TEXT CHECK (former_browser_id IS NULL OR length(former_browser_id) = 36),
    former_index INTEGER NOT NULL CHECK (former_index >= 0),
    former_opener_id TEXT CHECK (former_opener_id IS NULL OR length(former_opener_id) = 36),
    former_group_id TEXT CHECK (former_group_id IS NULL OR length(former_group_id) = 36),
    former_group_title TEXT,
    former_group_color TEXT CHECK (former_group_color IS NULL OR former_group_color IN
        ('grey', 'blue', 'red', 'yellow', 'green', 'pink', 'purple', 'cyan', 'orange')),
    archived_at TEXT NOT NULL
);
CREATE INDEX archived_tabs_by_former_browser ON archived_tabs(former_browser_id);
