import SessionModel
import SessionTestSupport
import Testing

@Suite struct WebStateListSplitTests {
    // MARK: - Create, update, remove

    @Test(arguments: [
        ("| a b c d", [0, 2], "| { 1 a c } b d"),  // the second joins the first, on its right
        ("| a b c d", [2, 0], "| { 1 a c } b d"),  // in any order
        ("| a b c d", [1, 2], "| a { 1 b c } d"),  // neighbours stay put
        ("a | [ 0 b ] c", [0, 2], "a c | [ 0 b ]"),  // the second takes the first's pin
        ("| [ 0 a b ] c", [0, 2], "| [ 0 a c b ]"),  // and its group
        ("| a [ 0 b ] c", [0, 1], "| { 1 a b } c"),  // a group the second empties is deleted
        ("| a b* c", [0, 2], "| a c b*"),  // the active tab stays the same tab
    ])
    func createSplit_bringsSecondNextToFirst(_ before: String, _ indexes: [Int], _ expected: String) throws {
        var (list, names) = try WebStateListNotation.parse(before)
        let (split, change) = try list.createSplit(at: indexes, id: names.splitID("1"))
        let formatted = names.format(list)
        #expect(formatted == (expected.contains("{") ? expected : Self.withSplit(expected, list, names)))
        #expect(change.splitsCreated == [split])
        #expect(list.splits[split] == TabSplit(id: split))
        #expect(ChangeChecks.violations(of: list).isEmpty)
    }

    /// The expected text with the new split's braces put around its two tabs, for cases whose
    /// expectation is easier to read without them.
    private static func withSplit(_ text: String, _ list: WebStateList, _ names: WebStateListNotation) -> String {
        guard let range = list.range(ofSplit: names.splitID("1")) else { return text }
        let first = names.name(of: list.webStates[range.lowerBound].id) ?? "_"
        var tokens = text.split(separator: " ").map(String.init)
        guard let at = tokens.firstIndex(where: { $0.hasPrefix(first) }) else { return text }
        tokens.insert(contentsOf: ["{", "1"], at: at)
        tokens.insert("}", at: at + 4)
        return tokens.joined(separator: " ")
    }

    @Test(arguments: [[0], [0, 0], [0, 1, 2]])
    func createSplit_otherThanTwoTabs_throws(_ indexes: [Int]) throws {
        var (list, _) = try WebStateListNotation.parse("| a b c")
        let before = list
        #expect(throws: WebStateListError.splitNeedsTwoTabs(count: Set(indexes).count)) {
            try list.createSplit(at: indexes)
        }
        #expect(list == before)
    }

    @Test func createSplit_tabAlreadySplit_throws() throws {
        var (list, names) = try WebStateListNotation.parse("| { 0 a b } c")
        #expect(throws: WebStateListError.alreadyInSplit(names.webStateID("b"))) { try list.createSplit(at: [1, 2]) }
        #expect(throws: WebStateListError.duplicateSplit(names.splitID("0"))) {
            try list.createSplit(at: [2, 2 - 2], id: names.splitID("0"))
        }
    }

    @Test func updateSplit_changesVisualDataOnce() throws {
        var (list, names) = try WebStateListNotation.parse("| { 0 a b } c")
        let visualData = TabSplitVisualData(ratio: 0.3, layout: .horizontal)
        let change = try list.updateSplit(names.splitID("0"), visualData: visualData)
        #expect(change == WebStateListChange(splitsUpdated: [names.splitID("0")]))
        #expect(list.splits[names.splitID("0")]?.visualData == visualData)
        #expect(try list.updateSplit(names.splitID("0"), visualData: visualData).isEmpty)
        #expect(throws: WebStateListError.unknownSplit(names.splitID("5"))) {
            try list.updateSplit(names.splitID("5"), visualData: visualData)
        }
    }

    @Test func visualData_ratioOutsideZeroToOne_isHalf() {
        #expect(TabSplitVisualData(ratio: 1.5).ratio == 0.5)
        #expect(TabSplitVisualData(ratio: .nan).ratio == 0.5)
        #expect(TabSplitVisualData(ratio: 0.25).ratio == 0.25)
    }

    @Test func removeSplit_keepsTabsInPlace() throws {
        var (list, names) = try WebStateListNotation.parse("| a { 0 b* c } d")
        let change = try list.removeSplit(names.splitID("0"))
        #expect(names.format(list) == "| a b* c d")
        #expect(change.splitsDeleted == [names.splitID("0")])
        #expect(change.updated == [names.webStateID("b"), names.webStateID("c")])
        #expect(change.moved.isEmpty)
    }

    // MARK: - Every operation keeps splits whole

    @Test(arguments: [
        ("| { 0 a b } c d", 0, 3, "| c d { 0 a b }"),  // moving right: the pair ends at the target
        ("| { 0 a b } c d", 1, 3, "| c d { 0 a b }"),  // either tab moves the pair
        ("| c d { 0 a b }", 3, 0, "| { 0 a b } c d"),  // moving left: the pair starts at the target
        ("| { 0 a b } c", 0, 1, "| { 0 a b } c"),  // a target inside the pair changes nothing
        ("x | { 0 a b } c", 1, 0, "x | { 0 a b } c"),  // clamped to its segment
        ("| { 0 a b } { 1 c d } e", 0, 2, "| { 1 c d } { 0 a b } e"),  // past a whole split
        ("| { 0 a b } [ 2 c d ] e", 0, 2, "| [ 2 c { 0 a b } d ] e"),  // into a group between its tabs
        ("| { 0 a b } [ 2 c d ] e", 0, 3, "| [ 2 c d ] { 0 a b } e"),  // past the group's end
        ("| a { 0 b c } d", 0, 1, "| { 0 b c } a d"),  // a single tab goes past a split, moving right
        ("| a { 0 b c } d", 3, 2, "| a d { 0 b c }"),  // and moving left
    ])
    func move_keepsSplitsWhole(_ before: String, _ from: Int, _ to: Int, _ expected: String) throws {
        var (list, names) = try WebStateListNotation.parse(before)
        let original = list
        let change = try list.move(from: from, to: to)
        #expect(names.format(list) == expected)
        #expect(ChangeChecks.violations(of: list).isEmpty)
        ChangeChecks.expectMatchesDiff(change, from: original, to: list)
    }

    @Test(arguments: [
        ("x | a { 0 b c }", true, 3, "x { 0 b c } | a"),  // pinning pins both, in order
        ("x | a { 0 b c }", true, 2, "x { 0 b c } | a"),
        ("{ 0 a b } x | c", false, 1, "x | c { 0 a b }"),  // unpinning moves both to the end
        ("| [ 1 { 0 a b } c ] d", true, 0, "{ 0 a b } | [ 1 c ] d"),  // pinning leaves the group
    ])
    func setPinned_takesPartnerAlong(_ before: String, _ pinned: Bool, _ index: Int, _ expected: String) throws {
        var (list, names) = try WebStateListNotation.parse(before)
        let original = list
        let id = list.webStates[index].id
        let (newIndex, change) = try list.setPinned(pinned, at: index)
        #expect(names.format(list) == expected)
        #expect(list.index(of: id) == newIndex)
        ChangeChecks.expectMatchesDiff(change, from: original, to: list)
    }

    @Test func groups_takeSplitsWhole() throws {
        var (list, names) = try WebStateListNotation.parse("| a { 0 b c } d")
        try list.createGroup(at: [3, 1], visualData: TabGroupVisualData(), id: names.groupID("1"))
        #expect(names.format(list) == "| a [ 1 { 0 b c } d ]")
        try list.removeFromGroups([2])
        #expect(names.format(list) == "| a [ 1 d ] { 0 b c }")
        try list.moveToGroup([3], group: names.groupID("1"))
        #expect(names.format(list) == "| a [ 1 d { 0 b c } ]")
    }

    @Test func moveGroup_neverLandsInsideSplit() throws {
        var (list, names) = try WebStateListNotation.parse("| { 0 a b } [ 1 c ]")
        try list.moveGroup(names.groupID("1"), before: 1)
        #expect(names.format(list) == "| [ 1 c ] { 0 a b }")
    }

    @Test(arguments: [
        ("| { 0 a b } c", 1, "| { 0 a b } X c"),  // between a split's tabs: just after the split
        ("| { 0 a b } c", 0, "| X { 0 a b } c"),
        ("{ 0 a b } | c", 1, "{ 0 a b } X | c"),
    ])
    func insert_neverLandsInsideSplit(_ before: String, _ index: Int, _ expected: String) throws {
        var (list, names) = try WebStateListNotation.parse(before)
        let pinned = list.isPinned(at: min(index, list.count - 1)) && index < list.pinnedCount
        var params = InsertionParams.atIndex(index)
        if pinned { params = params.pinned() }
        let (newIndex, _) = try list.insert(names.webState("X"), params: params)
        #expect(names.format(list) == expected)
        #expect(list.index(of: names.webStateID("X")) == newIndex)
    }

    @Test func removingOneTab_endsSplitAndKeepsTheOther() throws {
        var (list, names) = try WebStateListNotation.parse("| a { 0 b c* } d")
        let original = list
        let change = try list.remove(at: 2)
        #expect(names.format(list) == "| a b d*" || names.format(list) == "| a b* d")
        #expect(list.splits.isEmpty)
        #expect(change.splitsDeleted == [names.splitID("0")])
        #expect(change.updated.contains(names.webStateID("b")))
        ChangeChecks.expectMatchesDiff(change, from: original, to: list)
    }

    @Test func replace_keepsSplitWithNewTab() throws {
        var (list, names) = try WebStateListNotation.parse("| { 0 a b } c")
        try list.replace(at: 1, with: names.webState("X"))
        #expect(names.format(list) == "| { 0 a X } c")
    }

    @Test func activeSplit_isTheSplitOfTheActiveTab() throws {
        let (list, names) = try WebStateListNotation.parse("| a { 0 b c* } d")
        #expect(list.activeSplit == names.splitID("0"))
        #expect(list.activeIndex == 2)
        let (other, _) = try WebStateListNotation.parse("| a* { 0 b c } d")
        #expect(other.activeSplit == nil)
    }

    // MARK: - Validation

    @Test(arguments: [
        "| { 0 a } b",  // one tab
        "{ 0 a } | b",
    ])
    func init_brokenSplit_throws(_ text: String) {
        #expect(throws: WebStateListError.self) { try WebStateListNotation.parse(text) }
    }

    @Test func invariants_reportBrokenAndUnknownSplits() throws {
        let (list, names) = try WebStateListNotation.parse("| { 0 a b } c")
        var entries = list.entries
        entries.swapAt(1, 2)  // a c b: not neighbours
        let split = names.splitID("0")
        #expect(
            WebStateListInvariants.violations(entries: entries, groups: [], splits: [split], activeIndex: nil)
                == [.splitNotWhole(split)]
        )
        #expect(
            WebStateListInvariants.violations(entries: list.entries, groups: [], splits: [], activeIndex: nil)
                == [.unknownSplit(index: 0, split), .unknownSplit(index: 1, split)]
        )
        entries = list.entries
        entries[0].isPinned = true  // one pinned, one not
        #expect(
            WebStateListInvariants.violations(entries: entries, groups: [], splits: [split], activeIndex: nil)
                == [.splitNotWhole(split)]
        )
    }

    // MARK: - Random sequences

    /// 20 seeds of 5,000 random operations each (100,000 in all), splits among them: every
    /// invariant holds after every step, and every change matches the diff of the two states.
    @Test(arguments: 0..<20)
    func randomOperations_keepSplitsWholeAfterEveryStep(_ seed: Int) {
        var mutations = RandomWebStateListMutations(seed: UInt64(90_000 + seed))
        var list = WebStateList()
        var splitsSeen = 0
        for step in 0..<5_000 {
            let before = list
            guard let change = mutations.apply(to: &list) else {
                #expect(list == before, "step \(step): a refused operation changed the list")
                continue
            }
            splitsSeen += change.splitsCreated.count
            let violations = ChangeChecks.violations(of: list)
            #expect(violations.isEmpty, "step \(step): \(violations)")
            if !violations.isEmpty { return }
            if step % 10 == 0 { ChangeChecks.expectMatchesDiff(change, from: before, to: list) }
        }
        #expect(splitsSeen > 100, "the sequence made too few splits to test them")
    }
}
