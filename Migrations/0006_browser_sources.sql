-- 0006_browser_sources.sql
-- compatibility: additive (a new table only: a binary that knows only 0001 to
-- 0005 reads and writes the store; a window it creates has no source)
--
-- Which program keeps each window in the store, when it is not the app itself.
--
-- * `browser_sources` holds one row per browser that a browser's native host
--   (`sessionstore host`) mirrors: its `source`, the name of the browser that
--   shows the window (`chromium`, `firefox`, or what `install-host --source`
--   named). Browsers without a row are the app's own.
-- * Two browsers pointed at one store keep windows of their own: a host
--   matches, writes and closes only the windows of its own source (and adopts
--   a window with no source when a snapshot of its browser shows it).
-- * The row goes with its browser (`ON DELETE CASCADE`); a window closed into
--   recently closed keeps its browser row, and so its source.

CREATE TABLE browser_sources (
    browser_id TEXT PRIMARY KEY NOT NULL REFERENCES browsers(id) ON DELETE CASCADE,
    source TEXT NOT NULL CHECK (length(source) BETWEEN 1 AND 64)
) WITHOUT ROWID;
CREATE INDEX browser_sources_by_source ON browser_sources(source);
