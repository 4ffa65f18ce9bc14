-- 0004_sync.sql
-- compatibility: additive (new tables, a view and triggers only: a binary that
-- knows only 0001 to 0003 reads and writes the store, and while sync is on the
-- triggers record what it changed for the next upload)
--
-- Sync of this device's tabs with the user's other devices (docs/sync-protocol.md).
--
-- * `sync_state` is one row: whether sync is on, this device's account and
--   device ids (never its keys: those live outside this file), the next value
--   of its version counter, and the server's cursor it has read up to.
-- * `sync_outbox` names each record that changed since the server last
--   acknowledged it: a kind and a local id (a tab, group or closed tab's UUID;
--   'device' for the device record). Triggers mark it in the transaction that
--   changes the row, whoever writes, and only while sync is on: with sync off
--   they write nothing. A record marked again while it is being uploaded moves
--   its `generation` on, so the acknowledgement of the older upload leaves it in
--   the outbox. Payloads are built from the current rows when they are sent.
-- * `sync_remote_*` hold the other devices' records, decrypted, so that their
--   tabs show offline and after a restart; `remote_tabs` is the view to read
--   them with `sqlite3`. The raw payload of every record is kept in
--   `sync_remote_records.payload`, fields this binary does not know included.
-- * `sync_applied_commands` keeps the ids of commands from other devices that
--   were applied here, so that none applies twice.
--
-- A tab is synced as a `tab` record while it is open (its browser is an open
-- window) and as a `closed` record while it sits in recently closed, by itself
-- or in a closed window. A change that moves a tab between the two marks both.

CREATE TABLE sync_state (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    enabled INTEGER NOT NULL DEFAULT 0 CHECK (enabled IN (0, 1)),
    account_id TEXT CHECK (account_id IS NULL OR length(account_id) = 32),
    device_id TEXT CHECK (device_id IS NULL OR length(device_id) = 36),
    device_name TEXT NOT NULL DEFAULT '',
    form_factor TEXT NOT NULL DEFAULT 'unknown' CHECK (form_factor IN ('desktop', 'phone', 'tablet', 'unknown')),
    server_url TEXT,
    -- The version the next uploaded record takes; only grows.
    next_version INTEGER NOT NULL DEFAULT 1 CHECK (next_version >= 1),
    -- The server's sequence number this device has read up to.
    cursor INTEGER NOT NULL DEFAULT 0 CHECK (cursor >= 0),
    last_sync_at TEXT,
    last_error TEXT,
    -- Above 0 when the rows may no longer match what the server holds (a snapshot
    -- restored, an import that replaced the content, a new pairing, another
    -- server): the next sync sends every record again and tombstones what the
    -- server holds of this device that is gone here. Each request sets a new
    -- random value (a restored snapshot brings back an old one), and a full sync
    -- clears only the value it saw when it started.
    full_sync_needed INTEGER NOT NULL DEFAULT 1 CHECK (full_sync_needed >= 0),
    CHECK (enabled = 0 OR (account_id IS NOT NULL AND device_id IS NOT NULL))
);
INSERT INTO sync_state (id) VALUES (1);

CREATE TABLE sync_outbox (
    kind TEXT NOT NULL CHECK (kind IN ('device', 'tab', 'group', 'closed')),
    local_id TEXT NOT NULL,
    -- Random at each insert, so a record deleted by an acknowledgement and marked
    -- again never takes the generation an older upload will acknowledge.
    generation INTEGER NOT NULL DEFAULT (abs(random() % 4611686018427387904)),
    marked_at TEXT NOT NULL,
    PRIMARY KEY (kind, local_id)
) WITHOUT ROWID;

CREATE TABLE sync_remote_records (
    record_id TEXT PRIMARY KEY NOT NULL CHECK (length(record_id) = 32),
    device_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('device', 'tab', 'group', 'closed')),
    version INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    modified_at TEXT NOT NULL,
    payload TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX sync_remote_records_by_device ON sync_remote_records(device_id);

CREATE TABLE sync_remote_devices (
    device_id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    form_factor TEXT NOT NULL DEFAULT 'unknown',
    last_seen_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE sync_remote_tabs (
    record_id TEXT PRIMARY KEY NOT NULL,
    device_id TEXT NOT NULL,
    tab_id TEXT NOT NULL,
    window_id TEXT NOT NULL,
    sort_key INTEGER NOT NULL,
    is_pinned INTEGER NOT NULL DEFAULT 0,
    group_id TEXT,
    title TEXT NOT NULL DEFAULT '',
    url TEXT NOT NULL DEFAULT '',
    last_active_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX sync_remote_tabs_by_window ON sync_remote_tabs(device_id, window_id, sort_key);

CREATE TABLE sync_remote_groups (
    record_id TEXT PRIMARY KEY NOT NULL,
    device_id TEXT NOT NULL,
    group_id TEXT NOT NULL,
    window_id TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    color TEXT NOT NULL DEFAULT 'grey',
    is_collapsed INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX sync_remote_groups_by_device ON sync_remote_groups(device_id, group_id);

CREATE TABLE sync_remote_closed (
    record_id TEXT PRIMARY KEY NOT NULL,
    device_id TEXT NOT NULL,
    tab_id TEXT NOT NULL,
    closed_at TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    url TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
CREATE INDEX sync_remote_closed_by_device ON sync_remote_closed(device_id, closed_at);

CREATE TABLE sync_applied_commands (
    command_id TEXT PRIMARY KEY NOT NULL,
    applied_at TEXT NOT NULL
) WITHOUT ROWID;

-- Every tab of the other devices, in order, with its device's name and group.
CREATE VIEW remote_tabs AS
SELECT
    d.name AS device_name,
    t.device_id,
    t.window_id,
    ROW_NUMBER() OVER (PARTITION BY t.device_id, t.window_id ORDER BY t.sort_key) - 1 AS tab_index,
    t.tab_id,
    t.is_pinned,
    g.title AS group_title,
    t.title,
    t.url,
    t.last_active_at
FROM sync_remote_tabs AS t
LEFT JOIN sync_remote_devices AS d ON d.device_id = t.device_id
LEFT JOIN sync_remote_groups AS g ON g.device_id = t.device_id AND g.group_id = t.group_id;

-- Each tab's record kind: 'closed' when it or its window is in recently closed, else 'tab'.
CREATE VIEW sync_tab_kinds AS
SELECT t.id,
       CASE WHEN t.closed_entry_id IS NOT NULL OR b.closed_entry_id IS NOT NULL THEN 'closed' ELSE 'tab' END AS kind
FROM tabs AS t LEFT JOIN browsers AS b ON b.id = t.browser_id;

-- The outbox marks. Each one is an upsert: a record marked again moves its
-- generation on. `WHERE true` keeps SQLite from reading ON CONFLICT as a join clause.

CREATE TRIGGER sync_after_tab_insert AFTER INSERT ON tabs
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
BEGIN
    INSERT INTO sync_outbox (kind, local_id, marked_at)
    SELECT kind, id, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM sync_tab_kinds WHERE id = new.id
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
    INSERT INTO sync_outbox (kind, local_id, marked_at) VALUES ('device', 'device', strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
END;

CREATE TRIGGER sync_after_tab_update AFTER UPDATE ON tabs
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
    AND (new.id IS NOT old.id OR new.browser_id IS NOT old.browser_id
         OR new.closed_entry_id IS NOT old.closed_entry_id OR new.sort_key IS NOT old.sort_key
         OR new.is_pinned IS NOT old.is_pinned OR new.group_id IS NOT old.group_id
         OR new.current_entry_index IS NOT old.current_entry_index
         OR new.history_start IS NOT old.history_start OR new.last_active_at IS NOT old.last_active_at)
BEGIN
    -- The tab as it is now.
    INSERT INTO sync_outbox (kind, local_id, marked_at)
    SELECT kind, id, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM sync_tab_kinds WHERE id = new.id
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
    -- Moved between a window and recently closed, or renamed: both kinds of the old id.
    INSERT INTO sync_outbox (kind, local_id, marked_at)
    SELECT kinds.kind, old.id, strftime('%Y-%m-%d %H:%M:%f', 'now')
    FROM (SELECT 'tab' AS kind UNION ALL SELECT 'closed') AS kinds
    WHERE new.id IS NOT old.id OR new.browser_id IS NOT old.browser_id OR new.closed_entry_id IS NOT old.closed_entry_id
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
    INSERT INTO sync_outbox (kind, local_id, marked_at)
    SELECT 'device', 'device', strftime('%Y-%m-%d %H:%M:%f', 'now')
    WHERE new.browser_id IS NOT old.browser_id OR new.is_pinned IS NOT old.is_pinned
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
END;

-- Both kinds: when its window is deleted too, the window's row is already gone.
CREATE TRIGGER sync_after_tab_delete AFTER DELETE ON tabs
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
BEGIN
    INSERT INTO sync_outbox (kind, local_id, marked_at)
    SELECT kinds.kind, old.id, strftime('%Y-%m-%d %H:%M:%f', 'now')
    FROM (SELECT 'tab' AS kind UNION ALL SELECT 'closed') AS kinds
    WHERE true
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
    INSERT INTO sync_outbox (kind, local_id, marked_at) VALUES ('device', 'device', strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
END;

-- A change of a tab's history or opener marks the tab in its current kind.
CREATE TRIGGER sync_after_entry_insert AFTER INSERT ON navigation_entries
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
BEGIN
    INSERT INTO sync_outbox (kind, local_id, marked_at)
    SELECT kind, id, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM sync_tab_kinds WHERE id = new.tab_id
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER sync_after_entry_update AFTER UPDATE ON navigation_entries
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
BEGIN
    INSERT INTO sync_outbox (kind, local_id, marked_at)
    SELECT kind, id, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM sync_tab_kinds WHERE id IN (new.tab_id, old.tab_id)
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER sync_after_entry_delete AFTER DELETE ON navigation_entries
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
BEGIN
    INSERT INTO sync_outbox (kind, local_id, marked_at)
    SELECT kind, id, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM sync_tab_kinds WHERE id = old.tab_id
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER sync_after_opener_insert AFTER INSERT ON tab_openers
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
BEGIN
    INSERT INTO sync_outbox (kind, local_id, marked_at)
    SELECT 'tab', t.id, strftime('%Y-%m-%d %H:%M:%f', 'now')
    FROM tabs AS t JOIN browsers AS b ON b.id = t.browser_id WHERE t.id = new.tab_id AND b.closed_entry_id IS NULL
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER sync_after_opener_delete AFTER DELETE ON tab_openers
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
BEGIN
    INSERT INTO sync_outbox (kind, local_id, marked_at)
    SELECT 'tab', t.id, strftime('%Y-%m-%d %H:%M:%f', 'now')
    FROM tabs AS t JOIN browsers AS b ON b.id = t.browser_id WHERE t.id = old.tab_id AND b.closed_entry_id IS NULL
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
END;

-- Groups.
CREATE TRIGGER sync_after_group_insert AFTER INSERT ON tab_groups
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
BEGIN
    INSERT INTO sync_outbox (kind, local_id, marked_at) VALUES ('group', new.id, strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER sync_after_group_update AFTER UPDATE ON tab_groups
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
BEGIN
    INSERT INTO sync_outbox (kind, local_id, marked_at)
    SELECT 'group', new.id, strftime('%Y-%m-%d %H:%M:%f', 'now')
    UNION SELECT 'group', old.id, strftime('%Y-%m-%d %H:%M:%f', 'now') WHERE true
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER sync_after_group_delete AFTER DELETE ON tab_groups
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
BEGIN
    INSERT INTO sync_outbox (kind, local_id, marked_at) VALUES ('group', old.id, strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
END;

-- Windows: the device record lists them. A window that closes or reopens moves
-- all of its tabs between `tab` and `closed`.
CREATE TRIGGER sync_after_browser_insert AFTER INSERT ON browsers
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
BEGIN
    INSERT INTO sync_outbox (kind, local_id, marked_at) VALUES ('device', 'device', strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER sync_after_browser_update AFTER UPDATE OF active_tab_id, closed_entry_id, last_active_at ON browsers
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
    AND (new.active_tab_id IS NOT old.active_tab_id OR new.closed_entry_id IS NOT old.closed_entry_id
         OR new.last_active_at IS NOT old.last_active_at)
BEGIN
    INSERT INTO sync_outbox (kind, local_id, marked_at) VALUES ('device', 'device', strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
    INSERT INTO sync_outbox (kind, local_id, marked_at)
    SELECT kinds.kind, t.id, strftime('%Y-%m-%d %H:%M:%f', 'now')
    FROM tabs AS t, (SELECT 'tab' AS kind UNION ALL SELECT 'closed') AS kinds
    WHERE t.browser_id = new.id AND new.closed_entry_id IS NOT old.closed_entry_id
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
    -- Its groups are published only while it is open.
    INSERT INTO sync_outbox (kind, local_id, marked_at)
    SELECT 'group', g.id, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM tab_groups AS g
    WHERE g.browser_id = new.id AND new.closed_entry_id IS NOT old.closed_entry_id
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER sync_after_browser_delete AFTER DELETE ON browsers
WHEN (SELECT enabled FROM sync_state WHERE id = 1) = 1
BEGIN
    INSERT INTO sync_outbox (kind, local_id, marked_at) VALUES ('device', 'device', strftime('%Y-%m-%d %H:%M:%f', 'now'))
    ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1;
END;
