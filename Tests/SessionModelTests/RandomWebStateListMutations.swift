import Foundation
import SessionModel
import SessionTestSupport
import Testing

/// Applies random mutations, valid or not, to a list, for the random-sequence tests.
struct RandomWebStateListMutations {
    var generator: SplitMix64

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    /// Applies one random mutation; returns its change, or `nil` if it threw (the list is then unchanged).
    mutating func apply(to list: inout WebStateList) -> WebStateListChange? {
        do {
            return try mutate(&list)
        } catch {
            return nil
        }
    }

    private mutating func index(in list: WebStateList, slack: Int = 0) -> Int {
        Int.random(in: -slack..<(max(list.count, 1) + slack), using: &generator)
    }

    private mutating func indexes(in list: WebStateList) -> [Int] {
        guard !list.isEmpty else { return [] }
        return (0..<Int.random(in: 1...3, using: &generator)).map { _ in
            Int.random(in: 0..<list.count, using: &generator)
        }
    }

    private mutating func group(in list: WebStateList) -> TabGroupID? {
        list.orderedGroups.randomElement(using: &generator)?.id
    }

    private mutating func newID() -> UUID {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }

    private mutating func mutate(_ list: inout WebStateList) throws -> WebStateListChange {
        // Kinds 0 to 18 are listed below; 6 (create a group) appears twice more and 16 (create a
        // split) three more times; anything else inserts.
        let insertWeight = list.count < 6 ? 12 : list.count > 16 ? 1 : 6
        let weighted = Array(0..<19) + [6, 6, 8, 10, 16, 16, 16, 0, 5] + Array(repeating: 99, count: insertWeight)
        let kind = weighted.randomElement(using: &generator) ?? 99
        let flip = { (generator: inout SplitMix64) in Bool.random(using: &generator) }
        switch kind {
        case 0: return try list.move(from: index(in: list), to: index(in: list, slack: 2))
        case 1:
            return try list.replace(
                at: index(in: list), with: WebState(id: WebStateID(rawValue: newID()), navigationIndex: 0)
            ).change
        case 2: return try list.remove(at: index(in: list))
        case 3: return try list.remove(RemovingIndexes(indexes(in: list)))
        case 4: return try list.activate(at: flip(&generator) ? index(in: list) : nil)
        case 5: return try list.setPinned(flip(&generator), at: index(in: list)).change
        case 6:
            return try list.createGroup(
                at: indexes(in: list), visualData: TabGroupVisualData(isCollapsed: flip(&generator)),
                id: TabGroupID(rawValue: newID())
            ).change
        case 7:
            guard let group = group(in: list) else { return WebStateListChange() }
            return try list.updateGroup(group, visualData: TabGroupVisualData(isCollapsed: flip(&generator)))
        case 8:
            guard let group = group(in: list) else { return WebStateListChange() }
            return try list.moveToGroup(indexes(in: list), group: group)
        case 9: return try list.removeFromGroups(indexes(in: list))
        case 10:
            guard let group = group(in: list) else { return WebStateListChange() }
            return try list.moveGroup(group, before: index(in: list, slack: 2))
        case 11:
            guard let group = group(in: list) else { return WebStateListChange() }
            return try list.deleteGroup(group)
        case 12:
            return try list.setNavigationIndex(Int.random(in: 0...2, using: &generator), forTabAt: index(in: list))
        case 13: return try list.remove(list.indexesForClosingOthers(keeping: index(in: list)))
        case 14:
            guard let group = group(in: list) else { return try list.remove(list.indexesForCloseAllRegular()) }
            return try list.remove(list.indexesForClosingGroup(group))
        case 15: return try list.setLastActiveAt(Date(timeIntervalSince1970: 1), forTabAt: index(in: list))
        case 16:
            return try list.createSplit(
                at: [index(in: list), index(in: list)], visualData: TabSplitVisualData(ratio: flip(&generator) ? 0.5 : 0.3),
                id: TabSplitID(rawValue: newID())
            ).change
        case 17:
            guard let split = list.splits.keys.randomElement(using: &generator) else { return WebStateListChange() }
            return try list.updateSplit(
                split, visualData: TabSplitVisualData(layout: flip(&generator) ? .vertical : .horizontal)
            )
        case 18:
            guard let split = list.splits.keys.randomElement(using: &generator) else { return WebStateListChange() }
            return try list.removeSplit(split)
        default:
            var params = flip(&generator) ? InsertionParams.automatic() : .atIndex(index(in: list, slack: 2))
            if flip(&generator), let opener = list.webStates.randomElement(using: &generator) {
                params = params.withOpener(WebStateOpener(openerID: opener.id, navigationIndex: opener.navigationIndex))
            }
            if Int.random(in: 0..<4, using: &generator) == 0 { params = params.inheritingOpener() }
            if Int.random(in: 0..<4, using: &generator) == 0 { params = params.pinned() }
            if Int.random(in: 0..<3, using: &generator) == 0, let group = group(in: list) {
                params = params.inGroup(group)
            }
            let webState = WebState(
                id: WebStateID(rawValue: newID()), navigationIndex: Int.random(in: 0...2, using: &generator)
            )
            return try list.insert(webState, params: params.activate(flip(&generator))).change
        }
    }
}

/// Checks between two states of a list.
enum ChangeChecks {
    /// Whether the tabs outside `excluded` appear in the same relative order in both lists.
    static func keepsRelativeOrder(from before: WebStateList, to after: WebStateList, excluding excluded: Set<WebStateID>)
        -> Bool
    {
        let afterIDs = Set(after.webStates.map(\.id))
        let beforeIDs = Set(before.webStates.map(\.id))
        let old = before.webStates.map(\.id).filter { afterIDs.contains($0) && !excluded.contains($0) }
        let new = after.webStates.map(\.id).filter { beforeIDs.contains($0) && !excluded.contains($0) }
        return old == new
    }

    /// Returns the invariant violations of `list`.
    static func violations(of list: WebStateList) -> [WebStateListViolation] {
        WebStateListInvariants.violations(
            entries: list.entries, groups: Set(list.groups.keys), splits: Set(list.splits.keys),
            activeIndex: list.activeIndex
        )
    }
}

// MARK: - The diff as oracle

extension ChangeChecks {
    /// Records an issue for every field of `change` (a mutation's own change) that differs from
    /// the diff of `before` and `after`, except ``WebStateListChange/moved``, which must only keep
    /// the other tabs in order and name surviving tabs.
    static func expectMatchesDiff(
        _ change: WebStateListChange,
        from before: WebStateList,
        to after: WebStateList,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let oracle = WebStateListChange.between(before, after)
        #expect(change.inserted == oracle.inserted, "inserted", sourceLocation: sourceLocation)
        #expect(change.removed == oracle.removed, "removed", sourceLocation: sourceLocation)
        #expect(change.updated == oracle.updated, "updated", sourceLocation: sourceLocation)
        #expect(change.groupsCreated == oracle.groupsCreated, "groupsCreated", sourceLocation: sourceLocation)
        #expect(change.groupsUpdated == oracle.groupsUpdated, "groupsUpdated", sourceLocation: sourceLocation)
        #expect(change.groupsDeleted == oracle.groupsDeleted, "groupsDeleted", sourceLocation: sourceLocation)
        #expect(change.splitsCreated == oracle.splitsCreated, "splitsCreated", sourceLocation: sourceLocation)
        #expect(change.splitsUpdated == oracle.splitsUpdated, "splitsUpdated", sourceLocation: sourceLocation)
        #expect(change.splitsDeleted == oracle.splitsDeleted, "splitsDeleted", sourceLocation: sourceLocation)
        #expect(change.activeChanged == oracle.activeChanged, "activeChanged", sourceLocation: sourceLocation)
        #expect(change.previousActiveID == oracle.previousActiveID, "previousActiveID", sourceLocation: sourceLocation)
        #expect(change.newActiveID == oracle.newActiveID, "newActiveID", sourceLocation: sourceLocation)
        expectMovedKeepsOrder(change, from: before, to: after, sourceLocation: sourceLocation)
    }

    /// Records an issue unless the tabs outside `moved ∪ inserted` keep their relative order and
    /// every moved tab survives.
    static func expectMovedKeepsOrder(
        _ change: WebStateListChange,
        from before: WebStateList,
        to after: WebStateList,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let survivors = Set(before.webStates.map(\.id)).intersection(after.webStates.map(\.id))
        #expect(
            change.moved.isSubset(of: survivors), "moved names a tab that did not survive",
            sourceLocation: sourceLocation
        )
        #expect(
            keepsRelativeOrder(from: before, to: after, excluding: change.moved.union(change.inserted)),
            "the tabs outside moved changed order", sourceLocation: sourceLocation
        )
    }
}
