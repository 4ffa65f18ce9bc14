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
/// its position relative to other tabs changed. ``moved`` is also small for a
/// single mutation: the tabs outside `moved ∪ inserted` keep their relative
/// order, and every tab of `moved` is needed for that to hold, though a smaller
/// set may exist (a moved group reports its tabs, not the tabs it passed). For example:
///
///     "| a b c d"  move(from: 0, to: 3)   ->  moved [a]
///     "| a [ 0 b c ] d e"  moveGroup(0, before: 5)  ->  moved [b, c]
///
/// Each mutation of ``WebStateList`` computes its change directly, from the tabs
/// it touches; ``between(_:_:moveHints:)`` diffs two whole lists instead, for a
/// caller that has no mutations to go by.
///
/// ## Topics
/// ### Tabs
/// - ``inserted``
/// - ``removed``
/// - ``moved``
/// - ``updated``
/// ### Groups
/// - ``groupsCreated``
/// - ``groupsUpdated``
/// - ``groupsDeleted``
/// ### Splits
/// - ``splitsCreated``
/// - ``splitsUpdated``
/// - ``splitsDeleted``
/// ### Active tab
/// - ``activeChanged``
/// - ``previousActiveID``
/// - ``newActiveID``
public struct WebStateListChange: Hashable, Sendable {
    /// Tabs added to the list.
    public var inserted: Set<WebStateID>
    /// Tabs removed from the list, with their index before removal (in the order they were removed).
    public var removed: [RemovedWebState]
    /// Surviving tabs whose position relative to other tabs changed.
    public var moved: Set<WebStateID>
    /// Surviving tabs whose pinned state, group, split, opener, navigation index or times changed.
    public var updated: Set<WebStateID>
    /// Groups added to the list.
    public var groupsCreated: Set<TabGroupID>
    /// Surviving groups whose visual data changed.
    public var groupsUpdated: Set<TabGroupID>
    /// Groups removed from the list.
    public var groupsDeleted: Set<TabGroupID>
    /// Splits added to the list.
    public var splitsCreated: Set<TabSplitID>
    /// Surviving splits whose visual data changed.
    public var splitsUpdated: Set<TabSplitID>
    /// Splits that ended.
    public var splitsDeleted: Set<TabSplitID>
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
        splitsCreated: Set<TabSplitID> = [],
        splitsUpdated: Set<TabSplitID> = [],
        splitsDeleted: Set<TabSplitID> = [],
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
        self.splitsCreated = splitsCreated
        self.splitsUpdated = splitsUpdated
        self.splitsDeleted = splitsDeleted
        self.previousActiveID = previousActiveID
        self.newActiveID = newActiveID
        self.activeChanged = activeChanged
    }

    /// Whether the mutation changed nothing.
    public var isEmpty: Bool {
        inserted.isEmpty && removed.isEmpty && moved.isEmpty && updated.isEmpty
            && groupsCreated.isEmpty && groupsUpdated.isEmpty && groupsDeleted.isEmpty
            && splitsCreated.isEmpty && splitsUpdated.isEmpty && splitsDeleted.isEmpty && !activeChanged
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
    /// the same rules, and so do splits. The active tab change spans the batch: it is dropped if
    /// the batch ends on the tab it started with. ``moved`` stays correct (the
    /// other tabs keep their relative order) but is no longer guaranteed minimal.
    /// A tab stays in ``updated`` (a group in ``groupsUpdated``) even if a later
    /// mutation restored its fields, and each ``removed`` entry keeps the index,
    /// pinned state and group the tab had when its own mutation removed it.
    ///
    /// The two changes describe consecutive states of one list, as the changes a
    /// ``WebStateList`` returns (and their unions) do: this change is then already
    /// consistent (its moved and updated tabs are neither inserted nor removed),
    /// and merging costs time proportional to `later` only, however big this
    /// change has grown. ``WebStateList`` merges every mutation's change this way
    /// into what ``WebStateList/takeRecordedChanges()`` returns.
    ///
    /// - Parameter later: The change of the mutations that followed this one.
    public mutating func formUnion(_ later: WebStateListChange) {
        // Tabs: inserted in this batch and removed by `later` vanish from both.
        var laterRemovedIDs: Set<WebStateID> = []
        var transient: Set<WebStateID> = []
        if !later.removed.isEmpty {
            laterRemovedIDs.reserveCapacity(later.removed.count)
            for entry in later.removed {
                let id = entry.webState.id
                laterRemovedIDs.insert(id)
                if inserted.contains(id) { transient.insert(id) }
            }
            if transient.isEmpty {
                removed.append(contentsOf: later.removed)
            } else {
                removed.append(contentsOf: later.removed.lazy.filter { !transient.contains($0.webState.id) })
                inserted.subtract(transient)
            }
        }
        inserted.formUnion(later.inserted)

        // Tabs that left or (re)entered the list leave `moved` and `updated`. This change's own
        // sets are already clear of its inserted and removed tabs, so only `later`'s matter; a
        // tab of `later` that this change removed is present again, hence in `inserted`.
        let leaving = laterRemovedIDs.count + later.inserted.count
        if leaving > 0, !moved.isEmpty || !updated.isEmpty {
            moved.subtract(laterRemovedIDs)
            moved.subtract(later.inserted)
            updated.subtract(laterRemovedIDs)
            updated.subtract(later.inserted)
        }
        for id in later.moved where !inserted.contains(id) && !laterRemovedIDs.contains(id) && !transient.contains(id) {
            moved.insert(id)
        }
        for id in later.updated
        where !inserted.contains(id) && !laterRemovedIDs.contains(id) && !transient.contains(id) {
            updated.insert(id)
        }

        // Groups, then splits, by the same rules.
        Self.merge(
            created: &groupsCreated, updated: &groupsUpdated, deleted: &groupsDeleted,
            laterCreated: later.groupsCreated, laterUpdated: later.groupsUpdated, laterDeleted: later.groupsDeleted
        )
        Self.merge(
            created: &splitsCreated, updated: &splitsUpdated, deleted: &splitsDeleted,
            laterCreated: later.splitsCreated, laterUpdated: later.splitsUpdated, laterDeleted: later.splitsDeleted
        )

        if later.activeChanged {
            let start = activeChanged ? previousActiveID : later.previousActiveID
            let end = later.newActiveID
            activeChanged = start != end
            previousActiveID = activeChanged ? start : nil
            newActiveID = activeChanged ? end : nil
        }
    }

    /// Merges a later change's created, updated and deleted identifiers into these, by the rules
    /// ``formUnion(_:)`` gives groups.
    private static func merge<ID: Hashable>(
        created: inout Set<ID>, updated: inout Set<ID>, deleted: inout Set<ID>,
        laterCreated: Set<ID>, laterUpdated: Set<ID>, laterDeleted: Set<ID>
    ) {
        var transient: Set<ID> = []
        for id in laterDeleted {
            if created.contains(id) { transient.insert(id) } else { deleted.insert(id) }
        }
        created.subtract(transient)
        created.formUnion(laterCreated)
        if !updated.isEmpty {
            updated.subtract(laterDeleted)
            updated.subtract(laterCreated)
        }
        for id in laterUpdated where !created.contains(id) && !deleted.contains(id) && !transient.contains(id) {
            updated.insert(id)
        }
    }

    /// Returns this change merged with a later one; see ``formUnion(_:)``.
    public func union(_ later: WebStateListChange) -> WebStateListChange {
        var copy = self
        copy.formUnion(later)
        return copy
    }
}

// MARK: - Building a change

extension WebStateListChange {
    /// Records that the active tab went from `previous` to `new`; records nothing if they are the same tab.
    mutating func recordActive(from previous: WebStateID?, to new: WebStateID?) {
        guard previous != new else { return }
        activeChanged = true
        previousActiveID = previous
        newActiveID = new
    }
}
