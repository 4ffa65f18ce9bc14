/// A list's tabs in order, with the lookups the tab-list rules need, each in O(log n) or
/// in time proportional to the tabs it returns.
///
/// - The order is a ``TabTreeLinks`` treap over slots; each slot holds a tab and its group.
/// - `slotByID` finds a tab's slot, so ``index(of:)`` is a rank query.
/// - `childrenByOpener` keeps each opener's children as a set: their order is computed
///   from their ranks when a rule asks (Chromium's order controller scans the list instead).
/// - `membersByGroup` keeps each group's tabs, so a group's range is found from one member.
///
/// Every write goes through this type, which keeps the three maps in step with the slots.
struct TabSequence: Sendable {
    private(set) var links = TabTreeLinks()
    /// The tab in each slot; a free slot keeps a stale value until reused.
    private(set) var webStates: [WebState] = []
    /// The group of the tab in each slot.
    private(set) var groupIDs: [TabGroupID?] = []
    private var slotByID: [WebStateID: Int32] = [:]
    private var childrenByOpener: [WebStateID: Set<WebStateID>] = [:]
    private var membersByGroup: [TabGroupID: Set<WebStateID>] = [:]

    init() {}

    /// Builds the sequence from tabs and their groups, in order, in O(n).
    init(webStates: some Collection<WebState>, groupIDs: some Collection<TabGroupID?>) {
        self.webStates = Array(webStates)
        self.groupIDs = Array(groupIDs)
        links.rebuild(count: self.webStates.count)
        slotByID.reserveCapacity(self.webStates.count)
        for (slot, webState) in self.webStates.enumerated() {
            slotByID[webState.id] = Int32(slot)
            index(webState, group: self.groupIDs[slot])
        }
    }

    var count: Int { links.count }

    // MARK: - Reading

    subscript(position: Int) -> WebState {
        webStates[Int(links.slot(at: position))]
    }

    func groupID(at position: Int) -> TabGroupID? {
        groupIDs[Int(links.slot(at: position))]
    }

    /// The position of the tab whose identifier is `id`, or `nil`.
    func index(of id: WebStateID) -> Int? {
        slotByID[id].map { links.position(of: $0) }
    }

    /// Whether the sequence holds the tab whose identifier is `id`.
    func contains(_ id: WebStateID) -> Bool {
        slotByID[id] != nil
    }

    /// The positions of the tabs whose opener is `id`, in no particular order.
    func childIndexes(ofOpener id: WebStateID) -> [Int] {
        guard let children = childrenByOpener[id] else { return [] }
        return children.compactMap { index(of: $0) }
    }

    /// The identifiers of the tabs that have an opener.
    var tabsWithOpeners: [WebStateID] {
        childrenByOpener.values.flatMap { $0 }
    }

    /// The position of some tab of `group`, or `nil` if no tab has it.
    func anyIndex(inGroup group: TabGroupID) -> Int? {
        membersByGroup[group]?.first.flatMap { index(of: $0) }
    }

    /// The tabs in order, as a column.
    var webStateColumn: TabListColumn<WebState> {
        TabListColumn(links: links, values: webStates)
    }

    /// The groups in tab order, as a column.
    var groupIDColumn: TabListColumn<TabGroupID?> {
        TabListColumn(links: links, values: groupIDs)
    }

    // MARK: - Writing

    /// Inserts `webState` in `group` at `position`.
    mutating func insert(_ webState: WebState, group: TabGroupID?, at position: Int) {
        let slot = links.insert(at: position)
        store(webState, group: group, in: slot)
        slotByID[webState.id] = slot
        index(webState, group: group)
    }

    /// Removes the tab at `position` and returns it with its group.
    @discardableResult
    mutating func remove(at position: Int) -> (webState: WebState, group: TabGroupID?) {
        let slot = Int(links.remove(at: position))
        let removed = (webStates[slot], groupIDs[slot])
        slotByID[removed.0.id] = nil
        unindex(removed.0, group: removed.1)
        return removed
    }

    /// Moves the tab at `from` to `to`, in `group`.
    mutating func move(from: Int, to: Int, group: TabGroupID?) {
        let slot = Int(links.move(from: from, to: to))
        setGroup(group, inSlot: slot)
    }

    /// Sets the group of the tab at `position`.
    mutating func setGroupID(_ group: TabGroupID?, at position: Int) {
        setGroup(group, inSlot: Int(links.slot(at: position)))
    }

    /// Changes the tab at `position` in place, keeping the lookups in step with its
    /// identifier and opener.
    mutating func update<Result>(at position: Int, _ body: (inout WebState) throws -> Result) rethrows -> Result {
        let slot = Int(links.slot(at: position))
        let old = webStates[slot]
        let group = groupIDs[slot]
        let result = try body(&webStates[slot])
        let new = webStates[slot]
        if old.id != new.id || old.opener?.openerID != new.opener?.openerID {
            unindex(old, group: group)
            slotByID[old.id] = nil
            slotByID[new.id] = Int32(slot)
            index(new, group: group)
        }
        return result
    }

    // MARK: - Bookkeeping

    private mutating func store(_ webState: WebState, group: TabGroupID?, in slot: Int32) {
        if Int(slot) == webStates.count {
            webStates.append(webState)
            groupIDs.append(group)
        } else {
            webStates[Int(slot)] = webState
            groupIDs[Int(slot)] = group
        }
    }

    private mutating func setGroup(_ group: TabGroupID?, inSlot slot: Int) {
        let old = groupIDs[slot]
        guard old != group else { return }
        let id = webStates[slot].id
        if let old { removeMember(id, of: old) }
        if let group { membersByGroup[group, default: []].insert(id) }
        groupIDs[slot] = group
    }

    private mutating func index(_ webState: WebState, group: TabGroupID?) {
        if let opener = webState.opener?.openerID { childrenByOpener[opener, default: []].insert(webState.id) }
        if let group { membersByGroup[group, default: []].insert(webState.id) }
    }

    private mutating func unindex(_ webState: WebState, group: TabGroupID?) {
        if let opener = webState.opener?.openerID {
            childrenByOpener[opener]?.remove(webState.id)
            if childrenByOpener[opener]?.isEmpty == true { childrenByOpener[opener] = nil }
        }
        if let group { removeMember(webState.id, of: group) }
    }

    private mutating func removeMember(_ id: WebStateID, of group: TabGroupID) {
        membersByGroup[group]?.remove(id)
        if membersByGroup[group]?.isEmpty == true { membersByGroup[group] = nil }
    }
}
