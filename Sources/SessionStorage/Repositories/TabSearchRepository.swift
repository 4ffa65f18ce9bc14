import SessionModel

/// Finds tabs by the words of their current page's title and URL.
///
/// The store keeps a full-text index (SQLite FTS5) of every tab's current
/// page, open and recently closed, in step with every write. A query is words;
/// each must match the start of a word of the title or URL (`git doc` finds
/// "GitHub Docs", `exam` finds `https://example.com`), case and diacritics
/// ignored. Implementations are thread-safe, with the synchronous and `async`
/// forms of the other repositories.
///
/// ## Topics
/// - ``searchTabs(_:includingClosed:limit:)``
public protocol TabSearchRepository: Sendable {
    /// The tabs matching `query`, best first.
    ///
    /// - Parameters:
    ///   - query: Words, as a person types them; an empty query matches nothing.
    ///   - includingClosed: Whether tabs of recently closed entries are searched too.
    ///   - limit: The most matches returned.
    func searchTabs(_ query: String, includingClosed: Bool, limit: Int) throws -> [TabSearchMatch]

    /// The tabs matching `query`, best first, read off the caller's thread.
    func searchTabs(_ query: String, includingClosed: Bool, limit: Int) async throws -> [TabSearchMatch]
}
