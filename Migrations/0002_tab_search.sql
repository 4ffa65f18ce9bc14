-- 0002_tab_search.sql
-- compatibility: additive (new tables and triggers only: a binary that knows
-- only 0001 reads and writes the store, and the triggers keep the index right)
--
-- Full-text search over the page every tab shows: its current history entry's
-- title and URL (the shown URL, `virtual_url`, when there is one), for open
-- tabs and for the tabs of recently closed entries alike.
--
-- * `tab_search_pages` holds one row per tab that shows a page: the tab's
--   current title and URL, denormalised. Triggers on `tabs` and `navigation_entries` keep it in step in
--   the transaction that changes them, whoever writes (this library, an older
--   or newer one, or `sqlite3`), so it never needs rebuilding by hand.
-- * `tab_search` is an FTS5 index over that table (external content): its own
--   triggers mirror every insert, update and delete of a row into the index.
--   Tokens are Unicode words without diacritics; two- and three-character
--   prefixes are indexed, so a query typed as a prefix stays an index lookup.
-- * A page that a clear of browsing data removes leaves the index at once (the
--   triggers), and the library then merges the index (`optimize`) so no segment
--   keeps the old words; `secure_delete` zeroes the pages they occupied.
--
-- Existing stores are filled by the last statement below.

CREATE TABLE tab_search_pages (
    id INTEGER PRIMARY KEY,
    tab_id TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL DEFAULT '',
    url TEXT NOT NULL DEFAULT ''
);

CREATE VIRTUAL TABLE tab_search USING fts5(
    title, url,
    content = 'tab_search_pages', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);

-- The index follows its content table.
CREATE TRIGGER tab_search_pages_after_insert AFTER INSERT ON tab_search_pages BEGIN
    INSERT INTO tab_search (rowid, title, url) VALUES (new.id, new.title, new.url);
END;
CREATE TRIGGER tab_search_pages_after_delete AFTER DELETE ON tab_search_pages BEGIN
    INSERT INTO tab_search (tab_search, rowid, title, url) VALUES ('delete', old.id, old.title, old.url);
END;
CREATE TRIGGER tab_search_pages_after_update AFTER UPDATE ON tab_search_pages BEGIN
    INSERT INTO tab_search (tab_search, rowid, title, url) VALUES ('delete', old.id, old.title, old.url);
    INSERT INTO tab_search (rowid, title, url) VALUES (new.id, new.title, new.url);
END;

-- The content table follows the tabs and their current entries: a tab has a
-- row while it shows a page (a new tab, with no history yet, has none). Each
-- refresh writes only when the page really changed, so the index is not
-- rewritten for a move, an activation or a pin. Rows are removed by a DELETE
-- (which fires the index's trigger) before one is written for a tab id, and
-- written with an upsert: a writer's `INSERT OR REPLACE INTO tabs` removes the
-- old row without firing delete triggers, and its conflict rule would
-- otherwise pass to these statements and bypass the index's triggers too.
CREATE TRIGGER tab_search_after_tab_insert AFTER INSERT ON tabs BEGIN
    DELETE FROM tab_search_pages WHERE tab_id = new.id;
    INSERT INTO tab_search_pages (tab_id, title, url)
    SELECT new.id, e.title, coalesce(e.virtual_url, e.url) FROM navigation_entries AS e
    WHERE e.tab_id = new.id AND e.sequence = new.history_start + new.current_entry_index
    ON CONFLICT (tab_id) DO UPDATE SET title = excluded.title, url = excluded.url;
END;
CREATE TRIGGER tab_search_after_tab_delete AFTER DELETE ON tabs BEGIN
    DELETE FROM tab_search_pages WHERE tab_id = old.id;
END;
CREATE TRIGGER tab_search_after_tab_id_update AFTER UPDATE OF id ON tabs WHEN new.id IS NOT old.id BEGIN
    DELETE FROM tab_search_pages WHERE tab_id = new.id;
    UPDATE tab_search_pages SET tab_id = new.id WHERE tab_id = old.id;
END;
CREATE TRIGGER tab_search_after_tab_update AFTER UPDATE OF current_entry_index, history_start ON tabs
WHEN new.current_entry_index IS NOT old.current_entry_index OR new.history_start IS NOT old.history_start
BEGIN
    DELETE FROM tab_search_pages
    WHERE tab_id = new.id AND NOT EXISTS (
        SELECT 1 FROM navigation_entries
        WHERE tab_id = new.id AND sequence = new.history_start + new.current_entry_index);
    INSERT INTO tab_search_pages (tab_id, title, url)
    SELECT new.id, e.title, coalesce(e.virtual_url, e.url) FROM navigation_entries AS e
    WHERE e.tab_id = new.id AND e.sequence = new.history_start + new.current_entry_index
    ON CONFLICT (tab_id) DO UPDATE SET title = excluded.title, url = excluded.url
    WHERE title IS NOT excluded.title OR url IS NOT excluded.url;
END;
CREATE TRIGGER tab_search_after_entry_insert AFTER INSERT ON navigation_entries
WHEN new.sequence = (SELECT history_start + current_entry_index FROM tabs WHERE id = new.tab_id)
BEGIN
    INSERT INTO tab_search_pages (tab_id, title, url) VALUES (new.tab_id, new.title, coalesce(new.virtual_url, new.url))
    ON CONFLICT (tab_id) DO UPDATE SET title = excluded.title, url = excluded.url
    WHERE title IS NOT excluded.title OR url IS NOT excluded.url;
END;
CREATE TRIGGER tab_search_after_entry_update AFTER UPDATE OF title, url, virtual_url, sequence, tab_id
ON navigation_entries
WHEN new.sequence = (SELECT history_start + current_entry_index FROM tabs WHERE id = new.tab_id)
    OR old.sequence = (SELECT history_start + current_entry_index FROM tabs WHERE id = old.tab_id)
BEGIN
    DELETE FROM tab_search_pages
    WHERE tab_id IN (new.tab_id, old.tab_id) AND NOT EXISTS (
        SELECT 1 FROM tabs AS t JOIN navigation_entries AS e
            ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index
        WHERE t.id = tab_search_pages.tab_id);
    INSERT INTO tab_search_pages (tab_id, title, url)
    SELECT t.id, e.title, coalesce(e.virtual_url, e.url)
    FROM tabs AS t JOIN navigation_entries AS e
        ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index
    WHERE t.id IN (new.tab_id, old.tab_id)
    ON CONFLICT (tab_id) DO UPDATE SET title = excluded.title, url = excluded.url
    WHERE title IS NOT excluded.title OR url IS NOT excluded.url;
END;
CREATE TRIGGER tab_search_after_entry_delete AFTER DELETE ON navigation_entries
WHEN old.sequence = (SELECT history_start + current_entry_index FROM tabs WHERE id = old.tab_id)
BEGIN
    DELETE FROM tab_search_pages WHERE tab_id = old.tab_id;
END;

-- Existing stores: one row per tab that shows a page.
INSERT INTO tab_search_pages (tab_id, title, url)
SELECT t.id, e.title, coalesce(e.virtual_url, e.url)
FROM tabs AS t JOIN navigation_entries AS e
    ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index;
