-- 0011_sync_archived_tabs.sql
-- compatibility: additive (new tables and a trigger only: a binary that knows
-- only 0001 to 0010 reads and writes the store, never uploads archived tabs, and
-- reads another device's archived tabs as one more window of it)
--
-- Archived tabs in sync (TabListRules.md, Archived tabs; docs/sync-protocol.md).
--
-- * `sync_options.uploads_archived_tabs`: whether this device publishes its
--   archived tabs, each as a tab record marked `archived`. Off by default: a
--   device with 90,000 archived tabs would otherwise upload 90,000 records, and
--   archiving a tab then tombstones its record, as closing it would.
-- * `sync_remote_tab_details`: what another device's tab record says beyond the
--   columns of `sync_remote_tabs`: whether it was marked `archived` (such tabs
--   are listed apart from that device's windows; the view `remote_tabs` of 0004
--   lists them under the archive's id, as their `window_id`) and the split view
--   it is shown in. A row goes with its `sync_remote_tabs` row (the trigger),
--   whoever deletes it.

CREATE TABLE sync_options (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    uploads_archived_tabs INTEGER NOT NULL DEFAULT 0 CHECK (uploads_archived_tabs IN (0, 1))
);
INSERT INTO sync_options (id) VALUES (1);

CREATE TABLE sync_remote_tab_details (
    record_id TEXT PRIMARY KEY NOT NULL,
    is_archived INTEGER NOT NULL DEFAULT 0 CHECK (is_archived IN (0, 1)),
    split_id TEXT
) WITHOUT ROWID;

CREATE TRIGGER sync_remote_tab_details_after_tab_delete AFTER DELETE ON sync_remote_tabs BEGIN
    DELETE FROM sync_remote_tab_details WHERE record_id = old.record_id;
END;
