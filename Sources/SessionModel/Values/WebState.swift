import Foundation

/// One tab, as the tab list sees it.
///
/// Whether a tab is pinned and which group it belongs to are properties of the
/// ``WebStateList`` that holds it, not of the tab. The tab's navigation history
/// lives elsewhere; the list only needs its current index, to compare it with
/// the index its children recorded (<doc:TabListRules>, Insertion, step 4).
public struct WebState: Hashable, Sendable, Identifiable {
    /// The tab's identifier, unique across the store.
    public var id: WebStateID

    /// The tab that opened this one, if any; it is always a tab of the same list.
    public var opener: WebStateOpener?

    /// This tab's current history index; `nil` when its history is empty.
    public var navigationIndex: Int?

    /// When the tab was created.
    public var createdAt: Date

    /// When the tab was last active.
    public var lastActiveAt: Date

    /// Creates a tab.
    ///
    /// - Parameters:
    ///   - id: The tab's identifier; a new one by default.
    ///   - opener: The tab that opened this one.
    ///   - navigationIndex: The current history index, `nil` for an empty history.
    ///   - createdAt: The creation time; now by default.
    ///   - lastActiveAt: The last time the tab was active; `createdAt` by default.
    public init(
        id: WebStateID = WebStateID(),
        opener: WebStateOpener? = nil,
        navigationIndex: Int? = nil,
        createdAt: Date = Date(),
        lastActiveAt: Date? = nil
    ) {
        self.id = id
        self.opener = opener
        self.navigationIndex = navigationIndex
        self.createdAt = createdAt
        self.lastActiveAt = lastActiveAt ?? createdAt
    }
}
