/// A tab removed by a mutation, with where it was.
public struct RemovedWebState: Hashable, Sendable {
    /// The removed tab, as it was just before removal.
    public var webState: WebState
    /// The tab's index just before removal.
    public var index: Int
    /// Whether the tab was pinned.
    public var wasPinned: Bool
    /// The tab's group just before removal, if any.
    public var groupID: TabGroupID?

    /// Creates a description of a removed tab.
    public init(webState: WebState, index: Int, wasPinned: Bool, groupID: TabGroupID?) {
        self.webState = webState
        self.index = index
        self.wasPinned = wasPinned
        self.groupID = groupID
    }
}

/// What one mutation of a ``WebStateList`` (or a batch of them, via ``formUnion(_:)``) changed.
///
/// The storage layer writes rows from it, so it is exact: a tab appears in
/// ``updated`` only if one of its stored fields changed, and in ``moved`` only if
/// its position relative to other tabs changed. ``moved`` is also minimal for a
/// single mutation: the tabs outside `moved ∪ inserted` keep their relative
/// order, and every tab of `moved` is needed for that to hold. For example:
///
///     "| a b c d"  move(from: 0, to: 3)   ->  moved [a]
///     "| a [ 0 b c ] d e"  moveGroup(0, before: 5)  ->  moved [b, c]
///
/// ## Topics
/// - Tabs: ``inserted``, ``removed``, ``moved``, ``updated``
/// - Groups: ``groupsCreated``, ``groupsUpdated``, ``groupsDeleted``
/// - Active tab: ``activeChanged``, ``previousActiveID``, ``newActiveID``
public struct WebStateListChange: Hashable, Sendable {
    /// Tabs added to the list.
    public var inserted: Set<WebStateID>
    /// Tabs removed from the list, with their index before removal (in the order they were removed).
    public var removed: [RemovedWebState]
    /// Surviving tabs whose position relative to other tabs changed.
    public var moved: Set<WebStateID>
    /// Surviving tabs whose pinned state, group, opener, navigation index or times changed.
    public var updated: Set<WebStateID>
    /// Groups added to the list.
    public var groupsCreated: Set<TabGroupID>
    /// Surviving groups whose visual data changed.
    public var groupsUpdated: Set<TabGroupID>
    /// Groups removed from the list.
    public var groupsDeleted: Set<TabGroupID>
    /// The tab active before the mutation; only meaningful when ``activeChanged`` is true, `nil` otherwise.
    public var previousActiveID: WebStateID?
    /// The tab active after the mutation; only meaningful when ``activeChanged`` is true, `nil` otherwise.
    public var newActiveID: WebStateID?
    /// Whether the active tab is a different tab (or none) after the mutation.
    public var activeChanged: Bool

    /// Creates a change; every field is empty by default.
    public init(
        inserted: Set<WebStateID> = [],
        removed: [RemovedWebState] = [],
        moved: Set<WebStateID> = [],
        updated: Set<WebStateID> = [],
        groupsCreated: Set<TabGroupID> = [],
        groupsUpdated: Set<TabGroupID> = [],
        groupsDeleted: Set<TabGroupID> = [],
        previousActiveID: WebStateID? = nil,
        newActiveID: WebStateID? = nil,
        activeChanged: Bool = false
    ) {
        self.inserted = inserted
        self.removed = removed
        self.moved = moved
        self.updated = updated
        self.groupsCreated = groupsCreated
        self.groupsUpdated = groupsUpdated
        self.groupsDeleted = groupsDeleted
        self.previousActiveID = previousActiveID
        self.newActiveID = newActiveID
        self.activeChanged = activeChanged
    }

    /// Whether the mutation changed nothing.
    public var isEmpty: Bool {
        inserted.isEmpty && removed.isEmpty && moved.isEmpty && updated.isEmpty
            && groupsCreated.isEmpty && groupsUpdated.isEmpty && groupsDeleted.isEmpty && !activeChanged
    }

    /// The identifiers of the removed tabs.
    public var removedIDs: Set<WebStateID> {
        Set(removed.map(\.webState.id))
    }

    /// Merges a change that happened after this one, so that the result describes both.
    ///
    /// A tab inserted then removed within the batch disappears from both
    /// ``inserted`` and ``removed``; a tab removed then inserted again (same
    /// identifier) stays in both, and a writer applies removals first. Tabs in
    /// ``inserted`` or ``removed`` leave ``moved`` and ``updated``. Groups follow
    /// the same rules. The active tab change spans the batch: it is dropped if
    /// the batch ends on the tab it started with. ``moved`` stays correct (the
    /// other tabs keep their relative order) but is no longer guaranteed minimal.
    public mutating func formUnion(_ later: WebStateListChange) {
        let laterRemoved = later.removedIDs
        let transient = inserted.intersection(laterRemoved)
        removed += later.removed.filter { !transient.contains($0.webState.id) }
        inserted = inserted.union(later.inserted).subtracting(transient)
        let gone = removedIDs.subtracting(inserted).union(transient)
        moved = moved.union(later.moved).subtracting(gone).subtracting(inserted)
        updated = updated.union(later.updated).subtracting(gone).subtracting(inserted)

        let transientGroups = groupsCreated.intersection(later.groupsDeleted)
        groupsDeleted = groupsDeleted.union(later.groupsDeleted.subtracting(transientGroups))
        groupsCreated = groupsCreated.union(later.groupsCreated).subtracting(transientGroups)
        groupsUpdated = groupsUpdated.union(later.groupsUpdated)
            .subtracting(groupsCreated).subtracting(groupsDeleted).subtracting(transientGroups)

        if later.activeChanged {
            let start = activeChanged ? previousActiveID : later.previousActiveID
            let end = later.newActiveID
            activeChanged = start != end
            previousActiveID = activeChanged ? start : nil
            newActiveID = activeChanged ? end : nil
        }
    }

    /// Returns this change merged with a later one; see ``formUnion(_:)``.
    public func union(_ later: WebStateListChange) -> WebStateListChange {
        var copy = self
        copy.formUnion(later)
        return copy
    }
}
