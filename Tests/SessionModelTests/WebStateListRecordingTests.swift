import Foundation
import SessionModel
import SessionTestSupport
import Testing

/// Tests that every mutation computes its change directly, as the diff would give it, and that
/// `takeRecordedChanges()` returns the change of a whole batch.
@Suite struct WebStateListRecordingTests {
    // MARK: - Each mutation against the diff

    @Test(arguments: 0..<8)
    func directChange_randomMutations_matchesDiff(_ seed: Int) throws {
        var mutations = RandomWebStateListMutations(seed: UInt64(5_000 + seed))
        var generator = SplitMix64(seed: UInt64(9_000 + seed))
        var list = WebStateList()
        for _ in 0..<600 {
            let before = list
            _ = list.takeRecordedChanges()
            guard let change = mutations.apply(to: &list) else {
                #expect(list == before, "a refused mutation changed the list")
                #expect(list.takeRecordedChanges().isEmpty, "a refused mutation was recorded")
                continue
            }
            ChangeChecks.expectMatchesDiff(change, from: before, to: list)
            #expect(list.takeRecordedChanges() == change, "the recording differs from the returned change")

            // A single move reports the moved tab (with its split partner), and only it.
            guard !list.isEmpty else { continue }
            let from = Int.random(in: 0..<list.count, using: &generator)
            let movedID = list.webStates[from].id
            let unit = Set(list.splitRange(containing: from).map { list.webStates[$0].id })
            let beforeMove = list
            let moveChange = try list.move(from: from, to: Int.random(in: 0..<list.count, using: &generator))
            ChangeChecks.expectMatchesDiff(moveChange, from: beforeMove, to: list)
            if list.index(of: movedID) != from { #expect(moveChange.moved == unit) }
        }
    }

    // MARK: - Finding tabs

    /// `index(of:)` looks first where the latest mutations left a tab; whatever happened
    /// since, it answers as a scan of the list would, for every tab and for one not in it.
    @Test(arguments: 0..<4)
    func indexOf_afterRandomMutations_agreesWithAScan(_ seed: Int) {
        var mutations = RandomWebStateListMutations(seed: UInt64(7_000 + seed))
        var list = WebStateList()
        var checked = 0
        for _ in 0..<400 {
            _ = mutations.apply(to: &list)
            for (index, webState) in list.webStates.enumerated() {
                #expect(list.index(of: webState.id) == index)
                checked += 1
            }
            #expect(list.index(of: WebStateID()) == nil)
        }
        #expect(checked > 1_000)
    }

    // MARK: - Batches against the diff

    @Test(arguments: 0..<8)
    func takeRecordedChanges_randomBatches_matchesDiffOfBatch(_ seed: Int) throws {
        var mutations = RandomWebStateListMutations(seed: UInt64(7_000 + seed))
        var generator = SplitMix64(seed: UInt64(11_000 + seed))
        var list = WebStateList()
        for _ in 0..<250 {
            let start = list
            var legacy = WebStateListChange()
            for _ in 0..<Int.random(in: 1...5, using: &generator) {
                if let change = mutations.apply(to: &list) { legacy = Self.legacyUnion(legacy, change) }
            }
            let batch = list.takeRecordedChanges()
            let oracle = WebStateListChange.between(start, list)
            let survivors = Set(start.webStates.map(\.id)).intersection(list.webStates.map(\.id))
            let survivingGroups = Set(start.groups.keys).intersection(list.groups.keys)

            // Exactly the diff: tabs and groups that came or went, and the active tab.
            #expect(batch.inserted == oracle.inserted)
            #expect(batch.removedIDs == oracle.removedIDs)
            #expect(batch.groupsCreated == oracle.groupsCreated)
            #expect(batch.groupsDeleted == oracle.groupsDeleted)
            #expect(batch.splitsCreated == oracle.splitsCreated)
            #expect(batch.splitsDeleted == oracle.splitsDeleted)
            #expect(batch.activeChanged == oracle.activeChanged)
            #expect(batch.previousActiveID == oracle.previousActiveID)
            #expect(batch.newActiveID == oracle.newActiveID)
            // Every tab or group the diff reports, plus those a step changed and a later one restored.
            #expect(batch.updated.isSuperset(of: oracle.updated) && batch.updated.isSubset(of: survivors))
            #expect(
                batch.groupsUpdated.isSuperset(of: oracle.groupsUpdated)
                    && batch.groupsUpdated.isSubset(of: survivingGroups)
            )
            ChangeChecks.expectMovedKeepsOrder(batch, from: start, to: list)
            // The same as the union computed the way formUnion always did.
            #expect(batch == legacy)
            #expect(list.takeRecordedChanges().isEmpty)
        }
    }

    /// `first.union(later)` as `formUnion` computed it before it became incremental: every set
    /// rebuilt. The incremental one must agree on changes of consecutive mutations.
    static func legacyUnion(_ first: WebStateListChange, _ later: WebStateListChange) -> WebStateListChange {
        var result = first
        let laterRemoved = later.removedIDs
        let transient = result.inserted.intersection(laterRemoved)
        result.removed += later.removed.filter { !transient.contains($0.webState.id) }
        result.inserted = result.inserted.union(later.inserted).subtracting(transient)
        let gone = result.removedIDs.subtracting(result.inserted).union(transient)
        result.moved = result.moved.union(later.moved).subtracting(gone).subtracting(result.inserted)
        result.updated = result.updated.union(later.updated).subtracting(gone).subtracting(result.inserted)

        let transientGroups = result.groupsCreated.intersection(later.groupsDeleted)
        result.groupsDeleted = result.groupsDeleted.union(later.groupsDeleted.subtracting(transientGroups))
        result.groupsCreated = result.groupsCreated.union(later.groupsCreated).subtracting(transientGroups)
        result.groupsUpdated = result.groupsUpdated.union(later.groupsUpdated)
            .subtracting(result.groupsCreated).subtracting(result.groupsDeleted).subtracting(transientGroups)

        let transientSplits = result.splitsCreated.intersection(later.splitsDeleted)
        result.splitsDeleted = result.splitsDeleted.union(later.splitsDeleted.subtracting(transientSplits))
        result.splitsCreated = result.splitsCreated.union(later.splitsCreated).subtracting(transientSplits)
        result.splitsUpdated = result.splitsUpdated.union(later.splitsUpdated)
            .subtracting(result.splitsCreated).subtracting(result.splitsDeleted).subtracting(transientSplits)

        if later.activeChanged {
            let start = result.activeChanged ? result.previousActiveID : later.previousActiveID
            let end = later.newActiveID
            result.activeChanged = start != end
            result.previousActiveID = result.activeChanged ? start : nil
            result.newActiveID = result.activeChanged ? end : nil
        }
        return result
    }

    // MARK: - Recording

    @Test func takeRecordedChanges_builtList_isEmpty() throws {
        var (list, _) = try WebStateListNotation.parse("a | [ 0 b* c ] d")
        #expect(list.takeRecordedChanges().isEmpty)
        var empty = WebStateList()
        #expect(empty.takeRecordedChanges().isEmpty)
    }

    @Test func takeRecordedChanges_batch_mergesAndResets() throws {
        var (list, names) = try WebStateListNotation.parse("| a* b c")
        try list.insert(names.webState("X"), params: .atIndex(3))
        try list.move(from: 3, to: 0)
        try list.move(from: 2, to: 3)
        try list.remove(at: 3)
        try list.activate(at: 1)
        #expect(names.format(list) == "| X a* c")
        let change = list.takeRecordedChanges()
        #expect(change.inserted == [names.webStateID("X")])
        #expect(change.removed.map(\.webState.id) == [names.webStateID("b")])
        #expect(change.moved.isEmpty)
        #expect(!change.activeChanged)
        #expect(list.takeRecordedChanges().isEmpty)
    }

    @Test func equality_ignoresRecording() throws {
        let (original, _) = try WebStateListNotation.parse("| a* b")
        var mutated = original
        try mutated.move(from: 0, to: 1)
        try mutated.move(from: 1, to: 0)
        #expect(mutated == original)
        #expect(mutated.hashValue == original.hashValue)
        #expect(!mutated.takeRecordedChanges().isEmpty)
    }

    @Test func takeRecordedChanges_wholeListAssigned_returnsAssignedListsRecording() throws {
        var (list, names) = try WebStateListNotation.parse("| a* b")
        try list.remove(at: 1)
        var other = list
        _ = other.takeRecordedChanges()
        try other.insert(names.webState("X"), params: .automatic())
        list = other
        // The removal of b is lost with the old value: a wholesale assignment must be diffed.
        #expect(list.takeRecordedChanges() == WebStateListChange(inserted: [names.webStateID("X")]))
    }

    // MARK: - Small moved sets

    @Test func moved_eachMutation_reportsOnlyTheTabsThatChangedPlace() throws {
        var (list, names) = try WebStateListNotation.parse("a | b [ 0 c d ] e f g")
        let id = names.webStateID
        #expect(try list.move(from: 6, to: 1).moved == [id("g")])
        #expect(names.format(list) == "a | g b [ 0 c d ] e f")
        #expect(try list.setPinned(true, at: 5).change.moved == [id("e")])
        #expect(names.format(list) == "a e | g b [ 0 c d ] f")
        #expect(try list.setPinned(false, at: 1).change.moved == [id("e")])
        #expect(names.format(list) == "a | g b [ 0 c d ] f e")
        #expect(try list.moveGroup(names.groupID("0"), before: 1).moved == [id("c"), id("d")])
        #expect(names.format(list) == "a | [ 0 c d ] g b f e")
        let created = try list.createGroup(at: [4, 6], visualData: TabGroupVisualData(), id: names.groupID("1"))
        #expect(created.change.moved == [id("e")])
        #expect(created.change.updated == [id("b"), id("e")])
        #expect(names.format(list) == "a | [ 0 c d ] g [ 1 b e ] f")
        #expect(try list.moveToGroup([3, 6], group: names.groupID("0")).moved == [id("f")])
        #expect(names.format(list) == "a | [ 0 c d g f ] [ 1 b e ]")
        #expect(try list.removeFromGroups([1, 4]).moved == [id("c")])
        #expect(names.format(list) == "a | [ 0 d g ] c f [ 1 b e ]")
    }

    // MARK: - Large lists

    /// Applies a few hundred mutations to a 20,000-tab list and takes one change for the batch.
    /// It asserts no time (the benchmark command measures speed) and stays well under a second
    /// in a debug build, which copying or diffing the whole list at every mutation would not.
    @Test func takeRecordedChanges_largeList_reportsOnlyTheBatch() throws {
        let base = Date(timeIntervalSince1970: 0)
        let tabs = (0..<20_000).map { _ in WebState(createdAt: base) }
        var list = try WebStateList(
            webStates: tabs, pinnedCount: 0, groupIDs: Array(repeating: nil, count: tabs.count), groups: [],
            activeIndex: 0
        )
        var generator = SplitMix64(seed: 42)
        var inserted: Set<WebStateID> = []
        var removed: Set<WebStateID> = []
        var moved: Set<WebStateID> = []
        for step in 0..<300 {
            switch step % 3 {
            case 0:
                let webState = WebState(createdAt: base)
                inserted.insert(webState.id)
                try list.insert(webState, params: .atIndex(list.count))
            case 1:
                let from = Int.random(in: 1..<list.count, using: &generator)
                let to = Int.random(in: 1..<list.count, using: &generator)
                if to != from { moved.insert(list.webStates[from].id) }
                try list.move(from: from, to: to)
            default:
                let index = Int.random(in: 1..<list.count, using: &generator)
                let id = list.webStates[index].id
                if inserted.remove(id) == nil { removed.insert(id) }
                try list.remove(at: index)
            }
        }
        let change = list.takeRecordedChanges()
        #expect(list.count == 20_000)
        #expect(change.inserted == inserted)
        #expect(change.removedIDs == removed)
        #expect(change.moved == moved.subtracting(removed).subtracting(inserted))
        #expect(change.updated.isEmpty && !change.activeChanged)
    }
}

@Suite struct WebStateListLineageTests {
    @Test func lineage_keptByMutations_newForEveryInitializedList() throws {
        var list = WebStateList()
        let lineage = list.lineage
        try list.insert(WebState(), params: .automatic().activate())
        try list.activate(at: nil)
        #expect(list.lineage == lineage)
        let copy = list
        #expect(copy.lineage == lineage)
        list = WebStateList()
        #expect(list.lineage != lineage)
        #expect(try WebStateList(webStates: [], pinnedCount: 0, groupIDs: [], groups: [], activeIndex: nil).lineage != lineage)
    }
}

extension WebStateList {
    /// The indexes of the split holding the tab at `index`, or just `index` for a tab in none.
    fileprivate func splitRange(containing index: Int) -> Range<Int> {
        splitID(at: index).flatMap { range(ofSplit: $0) } ?? index..<index + 1
    }
}
