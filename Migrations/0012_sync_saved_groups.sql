-- 0012_sync_saved_groups.sql
-- compatibility: additive (new tables and triggers only: a binary that knows
-- only 0001 to 0011 reads and writes the store; it neither uploads nor merges
-- saved groups, and the triggers mark what it changes in one, which the next
-- sync of a newer binary sends)
--
-- Saved groups synced across the account's devices (docs/sync-protocol.md,
-- "Saved groups: account-wide records"). Any device may write them; each field
-- merges as last writer wins under a hybrid logical clock.
--
-- * `sync_saved_group_records`: every account-wide record this device knows,
--   its fields merged (JSON: each field `{"v": value, "t": stamp}`), with the
--   newest server version merged in and whether it holds a write of this device
--   the server has not acknowledged. `group_id` is the group a tab record's
--   merged `group` field names (the group itself for a group record).
-- * `sync_saved_group_bases`: each saved group as this device's rows held it
--   after its last merge (JSON): what differs from it now is a local edit.
-- * `sync_saved_group_marks`: groups changed here since, with the wall-clock
--   time of the change, which stamps the edit. Triggers mark, in the transaction
--   that changes the rows, whoever writes, and only while sync is on.
-- * `sync_saved_group_clock`: the last reading of this device's hybrid clock.

CREATE TABLE sync_saved_group_records (
    record_id TEXT PRIMARY KEY NOT NULL CHECK (length(record_id) = 32),
    kind TEXT NOT NULL CHECK (kind IN ('saved_group', 'saved_group_tab')),
    local_id TEXT NOT NULL,
    group_id TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    payload TEXT NOT NULL,
    dirty INTEGER NOT NULL DEFAULT 0 CHECK (dirty IN (0, 1))
) WITHOUT ROWID;
CREATE INDEX sync_saved_group_records_by_group ON sync_saved_group_records(group_id, kind);
CREATE INDEX sync_saved_group_records_dirty ON sync_saved_group_records(dirty) WHERE dirty = 1;

CREATE TABLE sync_saved_group_bases (
    group_id TEXT PRIMARY KEY NOT NULL,
    snapshot TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE sync_saved_group_marks (
    group_id TEXT PRIMARY KEY NOT NULL,
    marked_ms INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE sync_saved_group_clock (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    ms INTEGER NOT NULL DEFAULT 0,
    counter INTEGER NOT NULL DEFAULT 0
);
INSERT INTO sync_saved_group_clock (id) VALUES (1);

-- Saving a group, deleting or reopening it, and renaming or recolouring it.
CREATE TRIGGER sync_saved_group_after_insert AFTER INSERT ON saved_groups
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
BEGIN
    INSERT INTO sync_saved_group_marks (group_id, marked_ms)
    VALUES (new.group_id, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))
    ON CONFLICT (group_id) DO UPDATE SET marked_ms = excluded.marked_ms;
END;

CREATE TRIGGER sync_saved_group_after_delete AFTER DELETE ON saved_groups
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
BEGIN
    INSERT INTO sync_saved_group_marks (group_id, marked_ms)
    VALUES (old.group_id, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))
    ON CONFLICT (group_id) DO UPDATE SET marked_ms = excluded.marked_ms;
END;

CREATE TRIGGER sync_saved_group_after_group_update AFTER UPDATE OF title, color ON tab_groups
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
    AND (new.title IS NOT old.title OR new.color IS NOT old.color)
    AND EXISTS (SELECT 1 FROM saved_groups WHERE group_id = new.id)
BEGIN
    INSERT INTO sync_saved_group_marks (group_id, marked_ms)
    VALUES (new.id, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))
    ON CONFLICT (group_id) DO UPDATE SET marked_ms = excluded.marked_ms;
END;
