/// Named inputs of ``WebStateList/insert(_:params:)``, in Chromium's style.
///
/// Start from ``automatic()`` or ``atIndex(_:)`` and chain the options:
///
///     try list.insert(tab, params: .automatic().withOpener(parent.id).activate())
///
/// ``withOpener(_:)-(WebStateID)`` names the opener tab and records its current
/// history index inside the insertion (Chromium's `WebStateOpener(opener)`);
/// ``withOpener(_:)-(WebStateOpener)`` takes a link with an index of your own.
///
/// ``pinned(_:)`` and ``inGroup(_:)`` are mutually exclusive: inserting with
/// both throws ``WebStateListError/pinnedAndGrouped``.
public struct InsertionParams: Hashable, Sendable {
    /// The requested index, or `nil` to let the order controller choose (<doc:TabListRules>, Insertion, step 4).
    public var desiredIndex: Int?

    /// An explicit opener link, with the navigation index to record; ignored
    /// when ``inheritOpener`` or ``openerTab`` is set.
    public var opener: WebStateOpener?

    /// An explicit opener tab, recorded at its current history index when the tab
    /// is inserted; ignored when ``inheritOpener`` is set.
    public var openerTab: WebStateID?

    /// Whether the active tab becomes the opener, after every opener in the list is forgotten.
    public var inheritOpener: Bool

    /// Whether the new tab becomes the active tab.
    public var activate: Bool

    /// Whether the new tab is pinned (unless it joins a group deduced from its opener).
    public var pinned: Bool

    /// The group the new tab joins.
    public var group: TabGroupID?

    /// Creates parameters from every field; prefer ``automatic()`` or ``atIndex(_:)``.
    public init(
        desiredIndex: Int? = nil,
        opener: WebStateOpener? = nil,
        openerTab: WebStateID? = nil,
        inheritOpener: Bool = false,
        activate: Bool = false,
        pinned: Bool = false,
        group: TabGroupID? = nil
    ) {
        self.desiredIndex = desiredIndex
        self.opener = opener
        self.openerTab = openerTab
        self.inheritOpener = inheritOpener
        self.activate = activate
        self.pinned = pinned
        self.group = group
    }

    /// Parameters that let the order controller choose the index.
    ///
    ///     "| a b*"  insert(X, .automatic())  ->  "| a b* X"
    public static func automatic() -> InsertionParams {
        InsertionParams()
    }

    /// Parameters that ask for `index`; an index outside the allowed range appends to the segment or group.
    ///
    ///     "| a b c"  insert(X, .atIndex(1))   ->  "| a X b c"
    ///     "| a b c"  insert(X, .atIndex(99))  ->  "| a b c X"
    public static func atIndex(_ index: Int) -> InsertionParams {
        InsertionParams(desiredIndex: index)
    }

    /// Returns a copy whose new tab is opened by `opener`, recorded at the
    /// navigation index the link carries.
    public func withOpener(_ opener: WebStateOpener) -> Self {
        var copy = self
        copy.opener = opener
        copy.openerTab = nil
        return copy
    }

    /// Returns a copy whose new tab is opened by the tab `opener`, recorded at
    /// the opener's current history index, read in the same transaction as the
    /// insertion (Chromium's `WebStateOpener(opener)`).
    ///
    ///     "| a* b c" (b by a)  insert(X, .automatic().withOpener(a.id))  ->  "| a* b X c"
    public func withOpener(_ opener: WebStateID) -> Self {
        var copy = self
        copy.openerTab = opener
        copy.opener = nil
        return copy
    }

    /// Returns a copy that forgets every opener in the list and uses the active tab as the opener.
    public func inheritingOpener() -> Self {
        var copy = self
        copy.inheritOpener = true
        return copy
    }

    /// Returns a copy that activates the new tab, or not.
    public func activate(_ yes: Bool = true) -> Self {
        var copy = self
        copy.activate = yes
        return copy
    }

    /// Returns a copy that pins the new tab, or not.
    public func pinned(_ yes: Bool = true) -> Self {
        var copy = self
        copy.pinned = yes
        return copy
    }

    /// Returns a copy that puts the new tab in group `id`.
    public func inGroup(_ id: TabGroupID) -> Self {
        var copy = self
        copy.group = id
        return copy
    }
}
