-- 0003_tab_pages.sql
-- compatibility: additive (a new table and triggers only: a binary that knows
-- only 0001 or 0002 reads and writes the store, and the triggers keep the table right)
--
-- The page every tab shows, kept beside the tab so that a tab strip of any size
-- is read without going through the navigation history.
--
-- * `tab_pages` holds one row per tab that shows a page (open tabs and the tabs
--   of recently closed entries alike): its current history entry's title, URL,
--   shown URL (`virtual_url`) and favicon URL, denormalised. A new tab, with no
--   history yet, has none. Reading every tab of a window with its page is then
--   one lookup by key per tab in a small table, not one in the history.
-- * Triggers on `tabs` and `navigation_entries` keep it in step in the
--   transaction that changes them, whoever writes (this library, an older or
--   newer one, or `sqlite3`), as those of `tab_search_pages` (0002) do.
-- * A change of a tab's page also moves its browser's `revision` on, as a change
--   of its tab list does: a process that keeps a window's tabs and pages in
--   memory knows from the revision alone whether they are still current.
--
-- Existing stores are filled by the statement before the revision triggers.

CREATE TABLE tab_pages (
    tab_id TEXT PRIMARY KEY NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    url TEXT NOT NULL,
    virtual_url TEXT,
    favicon_url TEXT
) WITHOUT ROWID;

-- As in 0002: rows are removed by a DELETE before one is written for a tab id,
-- and written with an upsert, so a writer's `INSERT OR REPLACE INTO tabs` (which
-- removes the old row without firing delete triggers) leaves no stale row; each
-- refresh writes only when the page really changed.
CREATE TRIGGER tab_pages_after_tab_insert AFTER INSERT ON tabs BEGIN
    DELETE FROM tab_pages WHERE tab_id = new.id;
    INSERT INTO tab_pages (tab_id, title, url, virtual_url, favicon_url)
    SELECT new.id, e.title, e.url, e.virtual_url, e.favicon_url FROM navigation_entries AS e
    WHERE e.tab_id = new.id AND e.sequence = new.history_start + new.current_entry_index
    ON CONFLICT (tab_id) DO UPDATE SET
        title = excluded.title, url = excluded.url, virtual_url = excluded.virtual_url, favicon_url = excluded.favicon_url;
END;
CREATE TRIGGER tab_pages_after_tab_delete AFTER DELETE ON tabs BEGIN
    DELETE FROM tab_pages WHERE tab_id = old.id;
END;
CREATE TRIGGER tab_pages_after_tab_id_update AFTER UPDATE OF id ON tabs WHEN new.id IS NOT old.id BEGIN
    DELETE FROM tab_pages WHERE tab_id = new.id;
    UPDATE tab_pages SET tab_id = new.id WHERE tab_id = old.id;
END;
CREATE TRIGGER tab_pages_after_tab_update AFTER UPDATE OF current_entry_index, history_start ON tabs
WHEN new.current_entry_index IS NOT old.current_entry_index OR new.history_start IS NOT old.history_start
BEGIN
    DELETE FROM tab_pages
    WHERE tab_id = new.id AND NOT EXISTS (
        SELECT 1 FROM navigation_entries
        WHERE tab_id = new.id AND sequence = new.history_start + new.current_entry_index);
    INSERT INTO tab_pages (tab_id, title, url, virtual_url, favicon_url)
    SELECT new.id, e.title, e.url, e.virtual_url, e.favicon_url FROM navigation_entries AS e
    WHERE e.tab_id = new.id AND e.sequence = new.history_start + new.current_entry_index
    ON CONFLICT (tab_id) DO UPDATE SET
        title = excluded.title, url = excluded.url, virtual_url = excluded.virtual_url, favicon_url = excluded.favicon_url
    WHERE title IS NOT excluded.title OR url IS NOT excluded.url
        OR virtual_url IS NOT excluded.virtual_url OR favicon_url IS NOT excluded.favicon_url;
END;
CREATE TRIGGER tab_pages_after_entry_insert AFTER INSERT ON navigation_entries
WHEN new.sequence = (SELECT history_start + current_entry_index FROM tabs WHERE id = new.tab_id)
BEGIN
    INSERT INTO tab_pages (tab_id, title, url, virtual_url, favicon_url)
    VALUES (new.tab_id, new.title, new.url, new.virtual_url, new.favicon_url)
    ON CONFLICT (tab_id) DO UPDATE SET
        title = excluded.title, url = excluded.url, virtual_url = excluded.virtual_url, favicon_url = excluded.favicon_url
    WHERE title IS NOT excluded.title OR url IS NOT excluded.url
        OR virtual_url IS NOT excluded.virtual_url OR favicon_url IS NOT excluded.favicon_url;
END;
CREATE TRIGGER tab_pages_after_entry_update AFTER UPDATE OF title, url, virtual_url, favicon_url, sequence, tab_id
ON navigation_entries
WHEN new.sequence = (SELECT history_start + current_entry_index FROM tabs WHERE id = new.tab_id)
    OR old.sequence = (SELECT history_start + current_entry_index FROM tabs WHERE id = old.tab_id)
BEGIN
    DELETE FROM tab_pages
    WHERE tab_id IN (new.tab_id, old.tab_id) AND NOT EXISTS (
        SELECT 1 FROM tabs AS t JOIN navigation_entries AS e
            ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index
        WHERE t.id = tab_pages.tab_id);
    INSERT INTO tab_pages (tab_id, title, url, virtual_url, favicon_url)
    SELECT t.id, e.title, e.url, e.virtual_url, e.favicon_url
    FROM tabs AS t JOIN navigation_entries AS e
        ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index
    WHERE t.id IN (new.tab_id, old.tab_id)
    ON CONFLICT (tab_id) DO UPDATE SET
        title = excluded.title, url = excluded.url, virtual_url = excluded.virtual_url, favicon_url = excluded.favicon_url
    WHERE title IS NOT excluded.title OR url IS NOT excluded.url
        OR virtual_url IS NOT excluded.virtual_url OR favicon_url IS NOT excluded.favicon_url;
END;
CREATE TRIGGER tab_pages_after_entry_delete AFTER DELETE ON navigation_entries
WHEN old.sequence = (SELECT history_start + current_entry_index FROM tabs WHERE id = old.tab_id)
BEGIN
    DELETE FROM tab_pages WHERE tab_id = old.tab_id;
END;

-- Existing stores: one row per tab that shows a page.
INSERT INTO tab_pages (tab_id, title, url, virtual_url, favicon_url)
SELECT t.id, e.title, e.url, e.virtual_url, e.favicon_url
FROM tabs AS t JOIN navigation_entries AS e
    ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index;

-- A tab's page changed: its browser's revision moves on (a closed tab has no browser).
CREATE TRIGGER tab_pages_after_insert AFTER INSERT ON tab_pages BEGIN
    UPDATE browsers SET revision = revision + 1 WHERE id = (SELECT browser_id FROM tabs WHERE id = new.tab_id);
END;
CREATE TRIGGER tab_pages_after_update AFTER UPDATE ON tab_pages BEGIN
    UPDATE browsers SET revision = revision + 1
    WHERE id IN (SELECT browser_id FROM tabs WHERE id IN (new.tab_id, old.tab_id));
END;
CREATE TRIGGER tab_pages_after_delete AFTER DELETE ON tab_pages BEGIN
    UPDATE browsers SET revision = revision + 1 WHERE id = (SELECT browser_id FROM tabs WHERE id = old.tab_id);
END;
