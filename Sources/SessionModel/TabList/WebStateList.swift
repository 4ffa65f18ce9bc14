/// An ordered list of tabs: one browser window's tab strip, as a value.
///
/// The list applies the tab-list rules (<doc:TabListRules>). Every mutation validates its
/// input first and throws ``WebStateListError`` without changing anything when
/// the input is bad; otherwise it applies the rules and returns a
/// ``WebStateListChange`` that says exactly what it changed.
///
/// Invariants, checked by ``WebStateListInvariants`` and kept by every mutation:
/// - Pinned tabs form a prefix of the list; a tab is pinned, grouped or neither.
/// - Every group is contiguous and non-empty; a group that loses its last tab is deleted.
/// - Every split holds two neighbouring tabs, both pinned or neither, in the same group or
///   in none; a split that loses a tab ends.
/// - At most one tab is active; "no active tab" is legal.
/// - An opener always refers to a tab of the same list.
///
/// Threading: the list is a plain `Sendable` value with no shared state. It
/// cannot be re-entered: Swift's exclusivity rules forbid mutating a value
/// while one of its mutations runs. ``WebStateListError/reentrantMutation`` is
/// for owners that notify observers and must refuse their nested mutations.
///
/// Cost: the tabs live in a balanced tree (see ``TabListColumn``), with lookups by
/// identifier, by opener and by group. Finding a tab by position or by identifier,
/// inserting, removing and moving one, and finding an opener's children cost
/// O(log n) each, plus time proportional to the tabs a rule returns (a group's tabs,
/// an opener's children). No mutation shifts, copies or diffs the whole list; only
/// "forget every opener" visits every tab that has an opener.
///
/// Batches: every mutation also merges its change into a recording that
/// ``takeRecordedChanges()`` returns and resets, so a store can apply several
/// mutations and then write only what they touched. The recording is not part
/// of the list's value: two lists with the same tabs are equal whatever they
/// recorded.
///
/// Notation in the examples: letters are tabs, tabs left of `|` are pinned,
/// `[ N … ]` is group N and `*` marks the active tab.
///
///     "a b | [ 0 c d* ] e"
///
/// ## Topics
/// ### Creating
/// - ``init()``
/// - ``init(webStates:pinnedCount:groupIDs:groups:activeIndex:)``
/// - ``init(webStates:pinnedCount:groupIDs:groups:splitIDs:splits:activeIndex:)``
/// ### Reading
/// - ``webStates``
/// - ``count``
/// - ``isEmpty``
/// - ``pinnedCount``
/// - ``activeIndex``
/// - ``activeWebState``
/// - ``groupIDs``
/// - ``groups``
/// - ``orderedGroups``
/// - ``entries``
/// - ``index(of:)``
/// - ``id(at:)``
/// - ``isPinned(at:)``
/// - ``groupID(at:)``
/// - ``range(of:)``
/// - ``opener(at:)``
/// - ``navigationIndex(at:)``
/// - ``isCollapsed(group:)``
/// - ``splits``
/// - ``splitID(at:)``
/// - ``splitID(of:)``
/// - ``range(ofSplit:)``
/// - ``activeSplit``
/// ### Inserting, moving and activating
/// - ``insert(_:params:)``
/// - ``move(from:to:)``
/// - ``setPinned(_:at:)``
/// - ``replace(at:with:)``
/// - ``activate(at:)``
/// ### Removing
/// - ``remove(at:)``
/// - ``remove(_:)``
/// - ``indexesForCloseAll()``
/// - ``indexesForCloseAllRegular()``
/// - ``indexesForClosingGroup(_:)``
/// - ``indexesForClosingOthers(keeping:)``
/// ### Groups
/// - ``createGroup(at:visualData:id:)``
/// - ``updateGroup(_:visualData:)``
/// - ``moveToGroup(_:group:)``
/// - ``removeFromGroups(_:)``
/// - ``moveGroup(_:before:)``
/// - ``deleteGroup(_:)``
/// ### Splits
/// - ``createSplit(at:visualData:id:)``
/// - ``updateSplit(_:visualData:)``
/// - ``removeSplit(_:)``
/// ### Tab fields
/// - ``setNavigationIndex(_:forTabAt:)``
/// - ``setLastActiveAt(_:forTabAt:)``
/// - ``setCreatedAt(_:forTabAt:)``
/// ### Batches
/// - ``takeRecordedChanges()``
public struct WebStateList: Hashable, Sendable {
    /// The tabs in order, with their groups and the lookups the rules need.
    var tabs: TabSequence

    /// The tabs, in order.
    public var webStates: TabListColumn<WebState> { tabs.webStateColumn }

    /// The number of pinned tabs; they are the first ones.
    public internal(set) var pinnedCount: Int

    /// The group of each tab, parallel to ``webStates``; `nil` for an ungrouped tab.
    public var groupIDs: TabListColumn<TabGroupID?> { tabs.groupIDColumn }

    /// Every group of the list, by identifier.
    public internal(set) var groups: [TabGroupID: TabGroup]

    /// The index of the active tab, or `nil` when no tab is active.
    public internal(set) var activeIndex: Int?

    /// Every split view of the list, by identifier.
    public internal(set) var splits: [TabSplitID: TabSplit]

    /// Which tabs belong to which split.
    var splitBook = TabSplitBook()

    /// Everything the mutations changed since the list was created or since the last
    /// ``takeRecordedChanges()``; not part of the list's value (see ``==(_:_:)``).
    var recordedChange = WebStateListChange()

    /// Identifies this list's line of mutations: every list made by an
    /// initializer gets a new one, and mutations keep it. A caller that hands a
    /// list to code that may replace it wholesale (`list = other`) compares it
    /// before and after to know whether ``takeRecordedChanges()`` tells the whole
    /// story or a diff is needed. Not part of the list's value.
    package private(set) var lineage = UInt64.random(in: .min ... .max)

    /// Creates an empty list.
    public init() {
        tabs = TabSequence()
        pinnedCount = 0
        groups = [:]
        activeIndex = nil
        splits = [:]
    }

    /// Builds a list with no split from stored parts, validating every invariant.
    ///
    /// - Parameters:
    ///   - webStates: The tabs, in order.
    ///   - pinnedCount: How many of the first tabs are pinned.
    ///   - groupIDs: The group of each tab, parallel to `webStates`.
    ///   - groups: Every group of the list.
    ///   - activeIndex: The active index, or `nil`.
    /// - Throws: As ``init(webStates:pinnedCount:groupIDs:groups:splitIDs:splits:activeIndex:)``.
    public init(
        webStates: some Collection<WebState>,
        pinnedCount: Int,
        groupIDs: some Collection<TabGroupID?>,
        groups: [TabGroup],
        activeIndex: Int?
    ) throws {
        try self.init(
            webStates: webStates, pinnedCount: pinnedCount, groupIDs: groupIDs, groups: groups,
            splitIDs: repeatElement(TabSplitID?.none, count: webStates.count), splits: [], activeIndex: activeIndex
        )
    }

    /// Builds a list from stored parts, validating every invariant.
    ///
    /// - Parameters:
    ///   - webStates: The tabs, in order.
    ///   - pinnedCount: How many of the first tabs are pinned.
    ///   - groupIDs: The group of each tab, parallel to `webStates`.
    ///   - groups: Every group of the list.
    ///   - splitIDs: The split of each tab, parallel to `webStates`.
    ///   - splits: Every split of the list.
    ///   - activeIndex: The active index, or `nil`.
    /// - Throws: ``WebStateListError/indexOutOfRange(index:count:)`` if `pinnedCount` is not in
    ///   `0...webStates.count` (index: `pinnedCount`) or `groupIDs` or `splitIDs` is not as long as
    ///   `webStates` (index: its count); ``WebStateListError/duplicateGroup(_:)`` if two groups share
    ///   an identifier; ``WebStateListError/duplicateSplit(_:)`` if two splits do;
    ///   ``WebStateListError/invalidState(_:)`` with every ``WebStateListViolation`` found otherwise.
    public init(
        webStates: some Collection<WebState>,
        pinnedCount: Int,
        groupIDs: some Collection<TabGroupID?>,
        groups: [TabGroup],
        splitIDs: some Collection<TabSplitID?>,
        splits: [TabSplit],
        activeIndex: Int?
    ) throws {
        guard (0...webStates.count).contains(pinnedCount) else {
            throw WebStateListError.indexOutOfRange(index: pinnedCount, count: webStates.count)
        }
        guard groupIDs.count == webStates.count else {
            throw WebStateListError.indexOutOfRange(index: groupIDs.count, count: webStates.count)
        }
        guard splitIDs.count == webStates.count else {
            throw WebStateListError.indexOutOfRange(index: splitIDs.count, count: webStates.count)
        }
        var groupsByID: [TabGroupID: TabGroup] = [:]
        for group in groups {
            guard groupsByID.updateValue(group, forKey: group.id) == nil else {
                throw WebStateListError.duplicateGroup(group.id)
            }
        }
        var splitsByID: [TabSplitID: TabSplit] = [:]
        for split in splits {
            guard splitsByID.updateValue(split, forKey: split.id) == nil else {
                throw WebStateListError.duplicateSplit(split.id)
            }
        }
        var entries: [WebStateListEntry] = []
        entries.reserveCapacity(webStates.count)
        var splitIndex = splitIDs.makeIterator()
        for (index, tab) in zip(webStates, groupIDs).enumerated() {
            entries.append(
                WebStateListEntry(
                    id: tab.0.id,
                    isPinned: index < pinnedCount,
                    groupID: tab.1,
                    openerID: tab.0.opener?.openerID,
                    splitID: splitIndex.next() ?? nil
                )
            )
        }
        let violations = WebStateListInvariants.violations(
            entries: entries, groups: Set(groupsByID.keys), splits: Set(splitsByID.keys), activeIndex: activeIndex
        )
        guard violations.isEmpty else { throw WebStateListError.invalidState(violations) }
        self.tabs = TabSequence(webStates: webStates, groupIDs: groupIDs)
        self.pinnedCount = pinnedCount
        self.groups = groupsByID
        self.activeIndex = activeIndex
        self.splits = splitsByID
        var members: [TabSplitID: [WebStateID]] = [:]
        for entry in entries { if let split = entry.splitID { members[split, default: []].append(entry.id) } }
        for (split, tabs) in members { splitBook.add(split, tabs: tabs) }
    }

    // MARK: - Equality

    /// Whether two lists have the same tabs, pinned count, groups, splits and active index.
    ///
    /// What the lists recorded for ``takeRecordedChanges()``, and their lineage, do not count.
    public static func == (lhs: WebStateList, rhs: WebStateList) -> Bool {
        lhs.webStates == rhs.webStates && lhs.pinnedCount == rhs.pinnedCount && lhs.groupIDs == rhs.groupIDs
            && lhs.groups == rhs.groups && lhs.activeIndex == rhs.activeIndex
            && lhs.splits == rhs.splits && lhs.splitBook == rhs.splitBook
    }

    /// Hashes the tabs, pinned count, groups, splits and active index, as ``==(_:_:)`` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(webStates)
        hasher.combine(pinnedCount)
        hasher.combine(groupIDs)
        hasher.combine(groups)
        hasher.combine(activeIndex)
        hasher.combine(splits)
    }

    // MARK: - Batches

    /// Returns everything the mutations changed since the list was created or since the last
    /// call, and starts a new recording.
    ///
    /// A store applies a batch of mutations to a list, then takes the change to write only
    /// what it touched. The result is the ``WebStateListChange/formUnion(_:)`` of every
    /// mutation's change, in order: a tab inserted then removed within the batch appears in
    /// neither ``WebStateListChange/inserted`` nor ``WebStateListChange/removed``, and
    /// ``WebStateListChange/moved`` keeps the other tabs in order without being minimal.
    ///
    ///     var list = stored                       // "| a* b"
    ///     _ = list.takeRecordedChanges()          // start from a clean recording
    ///     try list.insert(x, params: .automatic())
    ///     try list.move(from: 2, to: 0)           // "| X a* b"
    ///     let change = list.takeRecordedChanges() // inserted [X]
    ///
    /// Lists made by ``init()`` or ``init(webStates:pinnedCount:groupIDs:groups:activeIndex:)``
    /// start with nothing recorded. The recording travels with the value: assigning a whole
    /// list (`list = other`) replaces it with `other`'s, which says nothing about how the
    /// assigned list differs from the old one; a caller that replaces a list wholesale must
    /// compute the change with ``WebStateListChange/between(_:_:moveHints:)`` instead.
    ///
    /// - Returns: The merged change of every mutation since the last call; empty if none.
    public mutating func takeRecordedChanges() -> WebStateListChange {
        let change = recordedChange
        recordedChange = WebStateListChange()
        return change
    }

    /// Ends the splits that lost a tab, merges a mutation's change into the recording and
    /// returns it.
    mutating func record(_ change: WebStateListChange) -> WebStateListChange {
        var change = change
        if !splitBook.isEmpty, !change.removed.isEmpty { endSplits(losing: change.removed, recording: &change) }
        if !change.isEmpty { recordedChange.formUnion(change) }
        return change
    }

    // MARK: - Reading

    /// The number of tabs.
    public var count: Int { tabs.count }

    /// Whether the list has no tab.
    public var isEmpty: Bool { tabs.count == 0 }

    /// The active tab, or `nil` when no tab is active.
    public var activeWebState: WebState? {
        activeIndex.map { tabs[$0] }
    }

    /// The groups in list order.
    public var orderedGroups: [TabGroup] {
        var result: [TabGroup] = []
        var previous: TabGroupID?
        for groupID in groupIDs where groupID != previous {
            if let groupID, let group = groups[groupID] { result.append(group) }
            previous = groupID
        }
        return result
    }

    /// The list as invariant-checker entries, one per tab.
    public var entries: [WebStateListEntry] {
        zip(webStates, groupIDs).enumerated().map { index, tab in
            WebStateListEntry(
                id: tab.0.id,
                isPinned: index < pinnedCount,
                groupID: tab.1,
                openerID: tab.0.opener?.openerID,
                splitID: splitBook.split(of: tab.0.id)
            )
        }
    }

    /// Returns the index of the tab whose identifier is `id`, in O(log n).
    public func index(of id: WebStateID) -> Int? {
        tabs.index(of: id)
    }

    /// Returns whether the tab at `index` is pinned.
    ///
    /// - Precondition: `index` is a valid index.
    public func isPinned(at index: Int) -> Bool {
        precondition((0..<count).contains(index), "Index \(index) out of range")
        return index < pinnedCount
    }

    /// Returns the group of the tab at `index`, if any.
    ///
    /// - Precondition: `index` is a valid index.
    public func groupID(at index: Int) -> TabGroupID? {
        tabs.groupID(at: index)
    }

    /// Returns the indexes of the tabs of `group`; `nil` if the list has no such group.
    ///
    ///     "| a [ 0 b c ] d"  range(of: 0)  ->  1..<3
    public func range(of group: TabGroupID) -> Range<Int>? {
        guard let member = tabs.anyIndex(inGroup: group) else { return nil }
        return range(ofGroupAt: member)
    }

    /// Returns the indexes of the tabs of the group of the tab at `index`, found from that tab
    /// outwards (groups are contiguous), in time proportional to the group's size.
    ///
    /// - Precondition: The tab at `index` is grouped.
    func range(ofGroupAt index: Int) -> Range<Int> {
        let group = tabs.groupID(at: index)
        precondition(group != nil, "The tab at \(index) is not grouped")
        var lower = index
        while lower > 0, tabs.groupID(at: lower - 1) == group { lower -= 1 }
        var upper = index + 1
        while upper < count, tabs.groupID(at: upper) == group { upper += 1 }
        return lower..<upper
    }

    // MARK: - Validation helpers

    /// Throws unless `index` designates a tab.
    func checkIndex(_ index: Int) throws(WebStateListError) {
        guard (0..<count).contains(index) else {
            throw .indexOutOfRange(index: index, count: count)
        }
    }

    /// Throws unless every index designates a tab.
    func checkIndexes(_ indexes: some Sequence<Int>) throws(WebStateListError) {
        for index in indexes { try checkIndex(index) }
    }

    /// Throws unless the list has `group`.
    func checkGroup(_ group: TabGroupID) throws(WebStateListError) {
        guard groups[group] != nil else { throw .unknownGroup(group) }
    }
}

// MARK: - OrderControllerSource

extension WebStateList: OrderControllerSource {
    /// The identifier of the tab at `index`.
    public func id(at index: Int) -> WebStateID {
        tabs[index].id
    }

    /// The opener of the tab at `index`, if any.
    public func opener(at index: Int) -> WebStateOpener? {
        tabs[index].opener
    }

    /// The current history index of the tab at `index`; `nil` for an empty history.
    public func navigationIndex(at index: Int) -> Int? {
        tabs[index].navigationIndex
    }

    /// The indexes of the tabs opened by the tab whose identifier is `id`, in no particular order.
    package func childIndexes(ofOpener id: WebStateID) -> [Int] {
        tabs.childIndexes(ofOpener: id)
    }

    /// Whether `group` is collapsed; `false` for a group the list does not have.
    public func isCollapsed(group: TabGroupID) -> Bool {
        groups[group]?.visualData.isCollapsed ?? false
    }
}
