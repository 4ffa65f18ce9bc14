import SessionModel

/// A browser's tab list as stored: the model value, each tab's `sort_key`,
/// and the browser's `revision` when they were read or written.
///
/// A repository caches these per browser. Before a mutation it compares the
/// cached revision with the row's (one indexed read), so a list that another
/// process changed is read again rather than overwritten.
struct StoredWebStateList: Sendable {
    var revision: Int64
    var list: WebStateList
    var keys: [WebStateID: Int64]
}
