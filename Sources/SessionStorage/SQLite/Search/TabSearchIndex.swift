internal import GRDB

/// The search index's maintenance the triggers cannot do.
enum TabSearchIndex {
    /// Merges the FTS5 index into one segment, dropping what was deleted from it.
    ///
    /// An FTS5 delete only records that a document left: its words stay in the old
    /// segments until a merge, where `secure_delete` cannot reach them. A deletion
    /// a person asks for (clearing browsing data, forgetting closed tabs, replacing
    /// the store's content) runs this in its transaction, so no word of a removed
    /// page stays in the file. It rewrites the whole index: not for every close.
    static func dropDeletedWords(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO tab_search (tab_search) VALUES ('optimize')")
    }
}
