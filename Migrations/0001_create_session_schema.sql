-- 0001_create_session_schema.sql
--
-- The first schema of the session store: browsers (windows), their ordered tab
-- lists, tab groups, opener links, each tab's navigation history, opaque engine
-- and page state, and recently closed entries. See README.md, "Schema".
--
-- Conventions
-- * Identifiers are canonical lowercase text UUIDs (36 characters).
-- * Times are UTC text, 'YYYY-MM-DD HH:MM:SS.SSS', readable and sortable.
-- * Booleans are 0 or 1. Fixed domains carry CHECK constraints.
-- * Tab order is the sparse integer `tabs.sort_key` within a browser, not a
--   dense index: inserting or moving one tab gives that tab a key between its
--   new neighbours' keys and writes no other row. Keys start 2^32 apart; when a
--   gap is used up, only a small neighbourhood of keys is spread out again. The
--   index a person sees is ROW_NUMBER() over sort_key (see the `open_tabs` view).
-- * `browsers.revision` grows with every committed change to a browser's tab
--   list, so a process holding a cached list knows when another one wrote. It
--   starts at a random value, so a browser deleted and created again under the
--   same identifier never matches a list cached before.

-- Recently closed tabs, groups and windows, restorable. A closed tab keeps its
-- row in `tabs` (with its history and engine state) and points here instead of
-- at a browser; a closed window keeps its `browsers` row, which points here.
CREATE TABLE closed_entries (
    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36 AND id = lower(id)),
    kind TEXT NOT NULL CHECK (kind IN ('tab', 'group', 'window')),
    closed_at TEXT NOT NULL,
    -- The browser the tab or group was closed from (NULL once that browser is gone).
    browser_id TEXT REFERENCES browsers(id) ON DELETE SET NULL,
    -- Index of the (first) closed tab in its browser when it was closed.
    tab_index INTEGER CHECK (tab_index >= 0),
    -- The group the closed tab or group belonged to, and its visual data.
    group_id TEXT CHECK (group_id IS NULL OR length(group_id) = 36),
    group_title TEXT,
    group_color TEXT CHECK (group_color IN ('grey', 'blue', 'red', 'yellow', 'green', 'pink', 'purple', 'cyan', 'orange')),
    group_collapsed INTEGER CHECK (group_collapsed IN (0, 1)),
    CHECK (kind <> 'group' OR group_id IS NOT NULL)
);
CREATE INDEX closed_entries_by_time ON closed_entries(closed_at);
CREATE INDEX closed_entries_by_browser ON closed_entries(browser_id) WHERE browser_id IS NOT NULL;

-- Browsers: one row a window. Off-the-record browsers never reach this file.
CREATE TABLE browsers (
    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36 AND id = lower(id)),
    created_at TEXT NOT NULL,
    last_active_at TEXT NOT NULL,
    -- The active tab; NULL means no tab is active (a legal state).
    active_tab_id TEXT REFERENCES tabs(id) ON DELETE SET NULL,
    revision INTEGER NOT NULL DEFAULT 0 CHECK (revision >= 0),
    -- Set while the whole window sits in recently closed.
    closed_entry_id TEXT UNIQUE REFERENCES closed_entries(id) ON DELETE CASCADE
);
CREATE INDEX browsers_by_last_active ON browsers(last_active_at);
CREATE INDEX browsers_by_active_tab ON browsers(active_tab_id) WHERE active_tab_id IS NOT NULL;

-- Tab groups: contiguous runs of regular (unpinned) tabs in one browser.
CREATE TABLE tab_groups (
    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36 AND id = lower(id)),
    browser_id TEXT NOT NULL REFERENCES browsers(id) ON DELETE CASCADE,
    title TEXT NOT NULL DEFAULT '',
    color TEXT NOT NULL DEFAULT 'grey'
        CHECK (color IN ('grey', 'blue', 'red', 'yellow', 'green', 'pink', 'purple', 'cyan', 'orange')),
    is_collapsed INTEGER NOT NULL DEFAULT 0 CHECK (is_collapsed IN (0, 1)),
    created_at TEXT NOT NULL
);
CREATE INDEX tab_groups_by_browser ON tab_groups(browser_id);

-- Tabs. An open tab belongs to a browser; a closed one to a closed entry.
CREATE TABLE tabs (
    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 36 AND id = lower(id)),
    browser_id TEXT REFERENCES browsers(id) ON DELETE CASCADE,
    closed_entry_id TEXT REFERENCES closed_entries(id) ON DELETE CASCADE,
    sort_key INTEGER NOT NULL,
    is_pinned INTEGER NOT NULL DEFAULT 0 CHECK (is_pinned IN (0, 1)),
    group_id TEXT REFERENCES tab_groups(id) ON DELETE SET NULL,
    -- Index of the current history entry; NULL when the history is empty.
    current_entry_index INTEGER CHECK (current_entry_index >= 0),
    -- `navigation_entries.sequence` of the oldest history entry.
    history_start INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    last_active_at TEXT NOT NULL,
    CHECK ((browser_id IS NULL) <> (closed_entry_id IS NULL)),
    CHECK (NOT (is_pinned = 1 AND group_id IS NOT NULL))
);
CREATE UNIQUE INDEX tabs_by_browser_order ON tabs(browser_id, sort_key) WHERE browser_id IS NOT NULL;
CREATE INDEX tabs_by_closed_entry ON tabs(closed_entry_id, sort_key) WHERE closed_entry_id IS NOT NULL;
CREATE INDEX tabs_by_group ON tabs(group_id) WHERE group_id IS NOT NULL;

-- Opener links: the tab that opened `tab_id`, and the opener's current
-- history index at that moment (children of an opener that has navigated
-- away since do not count when placing new children).
CREATE TABLE tab_openers (
    tab_id TEXT PRIMARY KEY NOT NULL REFERENCES tabs(id) ON DELETE CASCADE,
    opener_tab_id TEXT NOT NULL REFERENCES tabs(id) ON DELETE CASCADE,
    opener_navigation_index INTEGER CHECK (opener_navigation_index >= 0),
    CHECK (tab_id <> opener_tab_id)
);
CREATE INDEX tab_openers_by_opener ON tab_openers(opener_tab_id);

-- Navigation history. A tab's entries have consecutive `sequence` numbers
-- starting at `tabs.history_start`; an entry's index is `sequence - history_start`
-- (see the `tab_history` view). Trimming the oldest entry moves `history_start`
-- instead of renumbering every entry, so committing a navigation to a full
-- history writes a few rows, not all of them.
CREATE TABLE navigation_entries (
    id INTEGER PRIMARY KEY,
    tab_id TEXT NOT NULL REFERENCES tabs(id) ON DELETE CASCADE,
    sequence INTEGER NOT NULL,
    url TEXT NOT NULL CHECK (length(url) <= 2097152),
    -- The URL shown to the user, when it differs from `url`.
    virtual_url TEXT CHECK (length(virtual_url) <= 2097152),
    title TEXT NOT NULL DEFAULT '' CHECK (length(title) <= 512),
    referrer_url TEXT CHECK (length(referrer_url) <= 2097152),
    referrer_policy TEXT NOT NULL DEFAULT 'default'
        CHECK (referrer_policy IN ('always', 'default', 'no-referrer-when-downgrade', 'never', 'origin',
                                   'origin-when-cross-origin', 'same-origin', 'strict-origin',
                                   'strict-origin-when-cross-origin')),
    transition_type TEXT NOT NULL DEFAULT 'link'
        CHECK (transition_type IN ('link', 'typed', 'auto_bookmark', 'auto_subframe', 'manual_subframe',
                                   'generated', 'auto_toplevel', 'form_submit', 'reload', 'keyword',
                                   'keyword_generated')),
    timestamp TEXT NOT NULL,
    http_status INTEGER CHECK (http_status BETWEEN 0 AND 999),
    is_post INTEGER NOT NULL DEFAULT 0 CHECK (is_post IN (0, 1)),
    favicon_url TEXT CHECK (length(favicon_url) <= 2097152),
    user_agent_type TEXT NOT NULL DEFAULT 'automatic'
        CHECK (user_agent_type IN ('none', 'automatic', 'mobile', 'desktop')),
    UNIQUE (tab_id, sequence)
);
CREATE INDEX navigation_entries_by_time ON navigation_entries(timestamp);
CREATE INDEX navigation_entries_by_url ON navigation_entries(url);

-- Optional opaque page state of one navigation entry (engine-specific).
CREATE TABLE navigation_page_states (
    entry_id INTEGER PRIMARY KEY NOT NULL REFERENCES navigation_entries(id) ON DELETE CASCADE,
    data BLOB NOT NULL
);

-- Optional opaque engine state of one tab (WebKit's interaction state).
CREATE TABLE tab_engine_states (
    tab_id TEXT PRIMARY KEY NOT NULL REFERENCES tabs(id) ON DELETE CASCADE,
    data BLOB NOT NULL,
    updated_at TEXT NOT NULL
);

-- Every open tab with its window, position, state, and current page.
CREATE VIEW open_tabs AS
SELECT
    t.browser_id,
    ROW_NUMBER() OVER (PARTITION BY t.browser_id ORDER BY t.sort_key) - 1 AS tab_index,
    t.id AS tab_id,
    t.is_pinned,
    t.group_id,
    g.title AS group_title,
    g.color AS group_color,
    (b.active_tab_id IS t.id) AS is_active,
    e.title,
    e.url,
    t.created_at,
    t.last_active_at
FROM tabs AS t
JOIN browsers AS b ON b.id = t.browser_id
LEFT JOIN tab_groups AS g ON g.id = t.group_id
LEFT JOIN navigation_entries AS e
    ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index
WHERE b.closed_entry_id IS NULL;

-- Every open window with its tab count and active tab.
CREATE VIEW open_browsers AS
SELECT
    b.id AS browser_id,
    (SELECT count(*) FROM tabs WHERE tabs.browser_id = b.id) AS tab_count,
    (SELECT count(*) FROM tabs WHERE tabs.browser_id = b.id AND tabs.is_pinned = 1) AS pinned_count,
    (SELECT count(*) FROM tab_groups WHERE tab_groups.browser_id = b.id) AS group_count,
    b.active_tab_id,
    (SELECT title FROM open_tabs WHERE tab_id = b.active_tab_id) AS active_title,
    b.created_at,
    b.last_active_at
FROM browsers AS b
WHERE b.closed_entry_id IS NULL;

-- Every tab's history, the current entry marked.
CREATE VIEW tab_history AS
SELECT
    e.tab_id,
    e.sequence - t.history_start AS entry_index,
    (e.sequence - t.history_start IS t.current_entry_index) AS is_current,
    e.url,
    e.title,
    e.transition_type,
    e.timestamp
FROM navigation_entries AS e
JOIN tabs AS t ON t.id = e.tab_id;

-- Recently closed entries, most recent first, with what they hold.
CREATE VIEW recently_closed AS
SELECT
    c.id,
    c.kind,
    c.closed_at,
    c.browser_id,
    c.tab_index,
    c.group_title,
    CASE c.kind
        WHEN 'window' THEN (SELECT count(*) FROM tabs AS t JOIN browsers AS b ON b.id = t.browser_id
                            WHERE b.closed_entry_id = c.id)
        ELSE (SELECT count(*) FROM tabs AS t WHERE t.closed_entry_id = c.id)
    END AS tab_count
FROM closed_entries AS c
ORDER BY c.closed_at DESC;
