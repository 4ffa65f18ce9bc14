// MARK: - WebStateListEntry

/// One tab of a list as the invariant checker sees it: a row of a stored list or a tab of a live one.
public struct WebStateListEntry: Hashable, Sendable {
    /// The tab's identifier.
    public var id: WebStateID
    /// Whether the tab is pinned.
    public var isPinned: Bool
    /// The tab's group, if any.
    public var groupID: TabGroupID?
    /// The tab's opener, if any.
    public var openerID: WebStateID?
    /// The tab's split view, if any.
    public var splitID: TabSplitID?

    /// Creates an entry.
    public init(
        id: WebStateID, isPinned: Bool = false, groupID: TabGroupID? = nil, openerID: WebStateID? = nil,
        splitID: TabSplitID? = nil
    ) {
        self.id = id
        self.isPinned = isPinned
        self.groupID = groupID
        self.openerID = openerID
        self.splitID = splitID
    }
}

// MARK: - WebStateListViolation

/// One broken invariant of a tab list (<doc:TabListRules>, Invariants).
public enum WebStateListViolation: Hashable, Sendable, CustomStringConvertible {
    /// A pinned tab follows a regular one: pinned tabs must form a prefix.
    case pinnedNotPrefix(index: Int)
    /// A tab is both pinned and in a group.
    case pinnedAndGrouped(index: Int)
    /// A group's tabs are not next to each other.
    case groupNotContiguous(TabGroupID)
    /// A group has no tab.
    case emptyGroup(TabGroupID)
    /// The active index designates no tab.
    case activeIndexOutOfRange(Int)
    /// A tab's opener is not a tab of the same list.
    case openerNotInList(index: Int, opener: WebStateID)
    /// A tab is its own opener.
    case ownOpener(index: Int)
    /// Two tabs share an identifier.
    case duplicateID(WebStateID)
    /// A tab belongs to a group the list does not have.
    case unknownGroup(index: Int, TabGroupID)
    /// A tab belongs to a split the list does not have.
    case unknownSplit(index: Int, TabSplitID)
    /// A split does not hold exactly two neighbouring tabs with the same pinned state and group.
    case splitNotWhole(TabSplitID)

    /// One plain sentence that names the broken invariant.
    public var description: String {
        switch self {
        case let .pinnedNotPrefix(index):
            return "The pinned tab at index \(index) follows a regular tab."
        case let .pinnedAndGrouped(index):
            return "The tab at index \(index) is both pinned and grouped."
        case let .groupNotContiguous(group):
            return "The tabs of group \(group) are not contiguous."
        case let .emptyGroup(group):
            return "Group \(group) has no tab."
        case let .activeIndexOutOfRange(index):
            return "The active index \(index) designates no tab."
        case let .openerNotInList(index, opener):
            return "The opener \(opener) of the tab at index \(index) is not in the list."
        case let .ownOpener(index):
            return "The tab at index \(index) is its own opener."
        case let .duplicateID(id):
            return "Tab \(id) appears more than once."
        case let .unknownGroup(index, group):
            return "The tab at index \(index) belongs to unknown group \(group)."
        case let .unknownSplit(index, split):
            return "The tab at index \(index) belongs to unknown split view \(split)."
        case let .splitNotWhole(split):
            return "Split view \(split) does not hold two neighbouring tabs, both pinned or neither, in one group."
        }
    }
}

// MARK: - WebStateListInvariants

/// The invariant checker shared by the live list and by `sessionstore check` on stored rows.
///
/// The rules are those of <doc:TabListRules>, Invariants: pinned tabs form a prefix; a
/// tab is pinned, grouped or neither; every group is contiguous and non-empty;
/// every split holds two neighbouring tabs, both pinned or neither, in one group or
/// none; at most one active tab; an opener refers to a tab of the same list.
public enum WebStateListInvariants {
    /// Returns every broken invariant of a list, in a stable order; empty when the list is valid.
    ///
    /// Violations come in this order: duplicate identifiers, then per-tab
    /// problems by index (pinned not a prefix, pinned and grouped, unknown group,
    /// opener not in list, unknown split), then non-contiguous groups in list order, then
    /// empty groups by identifier text, then broken splits by identifier text, then the
    /// active index.
    ///
    ///     entries "| a [ 0 b ] c [ 0 d ]"  ->  [.groupNotContiguous(0)]
    ///
    /// - Parameters:
    ///   - entries: The tabs in list order.
    ///   - groups: Every group the list declares.
    ///   - splits: Every split the list declares.
    ///   - activeIndex: The active index, or `nil` when no tab is active.
    public static func violations(
        entries: [WebStateListEntry],
        groups: Set<TabGroupID>,
        splits: Set<TabSplitID> = [],
        activeIndex: Int?
    ) -> [WebStateListViolation] {
        var violations: [WebStateListViolation] = []

        var seen: Set<WebStateID> = []
        var reported: Set<WebStateID> = []
        for entry in entries where !seen.insert(entry.id).inserted {
            if reported.insert(entry.id).inserted {
                violations.append(.duplicateID(entry.id))
            }
        }

        var sawRegular = false
        for (index, entry) in entries.enumerated() {
            if entry.isPinned {
                if sawRegular { violations.append(.pinnedNotPrefix(index: index)) }
                if entry.groupID != nil { violations.append(.pinnedAndGrouped(index: index)) }
            } else {
                sawRegular = true
            }
            if let group = entry.groupID, !groups.contains(group) {
                violations.append(.unknownGroup(index: index, group))
            }
            if entry.openerID == entry.id {
                violations.append(.ownOpener(index: index))
            } else if let opener = entry.openerID, !seen.contains(opener) {
                violations.append(.openerNotInList(index: index, opener: opener))
            }
            if let split = entry.splitID, !splits.contains(split) {
                violations.append(.unknownSplit(index: index, split))
            }
        }

        var finished: Set<TabGroupID> = []
        var nonContiguous: Set<TabGroupID> = []
        var present: Set<TabGroupID> = []
        var previous: TabGroupID?
        for entry in entries {
            if let group = entry.groupID, group != previous {
                if finished.contains(group), nonContiguous.insert(group).inserted {
                    violations.append(.groupNotContiguous(group))
                }
            }
            if let previous, previous != entry.groupID {
                finished.insert(previous)
            }
            if let group = entry.groupID { present.insert(group) }
            previous = entry.groupID
        }

        for group in groups.subtracting(present).sorted(by: { $0.uuidString < $1.uuidString }) {
            violations.append(.emptyGroup(group))
        }

        violations += splitViolations(entries: entries, splits: splits)

        if let activeIndex, !entries.indices.contains(activeIndex) {
            violations.append(.activeIndexOutOfRange(activeIndex))
        }
        return violations
    }
}

extension WebStateListInvariants {
    /// The declared splits that do not hold exactly two neighbouring tabs with the same pinned
    /// state and group, by identifier text.
    static func splitViolations(entries: [WebStateListEntry], splits: Set<TabSplitID>) -> [WebStateListViolation] {
        guard !splits.isEmpty else { return [] }
        var members: [TabSplitID: [Int]] = [:]
        for (index, entry) in entries.enumerated() {
            if let split = entry.splitID, splits.contains(split) { members[split, default: []].append(index) }
        }
        var broken: [TabSplitID] = []
        for split in splits {
            let indexes = members[split] ?? []
            guard indexes.count == 2, indexes[1] == indexes[0] + 1 else {
                broken.append(split)
                continue
            }
            let (first, second) = (entries[indexes[0]], entries[indexes[1]])
            if first.isPinned != second.isPinned || first.groupID != second.groupID { broken.append(split) }
        }
        return broken.sorted { $0.uuidString < $1.uuidString }.map { .splitNotWhole($0) }
    }
}
