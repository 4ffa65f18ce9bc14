import SessionModel
import SessionTestSupport
import Testing

@Suite struct WebStateListInsertionTests {
    @Test func insert_automatic_appendsToRegularTabs() throws {
        var (list, names) = try WebStateListNotation.parse("a | b* c")
        let (index, change) = try list.insert(names.webState("X"), params: .automatic())
        #expect(names.format(list) == "a | b* c X")
        #expect(index == 3)
        #expect(change == WebStateListChange(inserted: [names.webStateID("X")]))
    }

    @Test func insert_automaticPinned_appendsToPinnedTabs() throws {
        var (list, names) = try WebStateListNotation.parse("a | b* c")
        try list.insert(names.webState("X"), params: .automatic().pinned())
        #expect(names.format(list) == "a X | b* c")
    }

    // One row per insertion point of "| a [ 0 b c ] d".
    @Test(arguments: [
        (0, "| X a [ 0 b c ] d"),  // before everything
        (1, "| a X [ 0 b c ] d"),  // at the group's first index: does not join
        (2, "| a [ 0 b X c ] d"),  // strictly inside the group: joins it
        (3, "| a [ 0 b c ] X d"),  // just past the group's end: does not join
        (4, "| a [ 0 b c ] d X"),  // at the end
        (5, "| a [ 0 b c ] d X"),  // out of range: end of the segment
        (-1, "| a [ 0 b c ] d X"),  // out of range: end of the segment
    ])
    func insert_atIndexAroundGroup_joinsOnlyStrictlyInside(_ index: Int, _ expected: String) throws {
        var (list, names) = try WebStateListNotation.parse("| a [ 0 b c ] d")
        try list.insert(names.webState("X"), params: .atIndex(index))
        #expect(names.format(list) == expected)
    }

    @Test(arguments: [
        (0, false, "a b | c d", "a b | c d X"),  // in the pinned segment: end of the regular tabs
        (3, true, "a b | c d", "a b X | c d"),  // in the regular segment: end of the pinned tabs
        (1, true, "a b | c d", "a X b | c d"),  // inside the pinned segment
        (2, false, "a b | c d", "a b | X c d"),  // the first regular index
    ])
    func insert_atIndexOutsideSegment_goesToSegmentEnd(
        _ index: Int, _ pinned: Bool, _ before: String, _ expected: String
    ) throws {
        var (list, names) = try WebStateListNotation.parse(before)
        try list.insert(names.webState("X"), params: .atIndex(index).pinned(pinned))
        #expect(names.format(list) == expected)
    }

    @Test(arguments: [
        (nil, "| a [ 0 b c X ] d"),  // automatic: end of the group
        (0, "| a [ 0 b c X ] d"),  // out of the group's range: end of the group
        (1, "| a [ 0 X b c ] d"),  // the group's first index, with the group named
        (3, "| a [ 0 b c X ] d"),  // just past the end: still the group
    ] as [(Int?, String)])
    func insert_inGroup_staysInGroupRange(_ index: Int?, _ expected: String) throws {
        var (list, names) = try WebStateListNotation.parse("| a [ 0 b c ] d")
        let params = index.map { InsertionParams.atIndex($0) } ?? .automatic()
        try list.insert(names.webState("X"), params: params.inGroup(names.groupID("0")))
        #expect(names.format(list) == expected)
    }

    @Test func insert_withOpenerWithoutChildren_goesRightAfterOpener() throws {
        var (list, names) = try WebStateListNotation.parse("| a* b c")
        try list.insert(names.webState("X"), params: .automatic().withOpener(names.opener("a")))
        #expect(names.format(list) == "| a* X b c")
        #expect(names.openers(in: list) == ["X": "a"])
    }

    @Test func insert_withOpener_goesAfterLastChild() throws {
        var (list, names) = try WebStateListNotation.parse("| a* b c d", openers: ["b": "a", "c": "a"])
        try list.insert(names.webState("X"), params: .automatic().withOpener(names.opener("a")))
        #expect(names.format(list) == "| a* b c X d")
    }

    @Test func insert_withOpenerAndChildBeforeIt_circularScanFindsLastChild() throws {
        // The scan starts after a: c, then d, then b (wrapping); b is the last child.
        var (list, names) = try WebStateListNotation.parse("| b a* c d", openers: ["b": "a", "c": "a"])
        try list.insert(names.webState("X"), params: .automatic().withOpener(names.opener("a")))
        #expect(names.format(list) == "| b X a* c d")
    }

    @Test func insert_withOpenerThatNavigatedAway_ignoresStaleChildren() throws {
        var (list, names) = try WebStateListNotation.parse(
            "| a* b c", openers: ["b": "a"], navigationIndexes: ["a": 2], openerNavigationIndexes: ["b": 1]
        )
        try list.insert(names.webState("X"), params: .automatic().withOpener(names.opener("a", navigationIndex: 2)))
        #expect(names.format(list) == "| a* X b c")
    }

    @Test func insert_withOpener_currentChildrenCountWhenIndexesMatch() throws {
        var (list, names) = try WebStateListNotation.parse(
            "| a* b c", openers: ["b": "a"], navigationIndexes: ["a": 2]
        )
        try list.insert(names.webState("X"), params: .automatic().withOpener(names.opener("a", navigationIndex: 2)))
        #expect(names.format(list) == "| a* b X c")
    }

    @Test func insert_withOpener_grandchildrenDoNotCount() throws {
        var (list, names) = try WebStateListNotation.parse("| a* b c d", openers: ["b": "a", "c": "b"])
        try list.insert(names.webState("X"), params: .automatic().withOpener(names.opener("a")))
        #expect(names.format(list) == "| a* b X c d")
    }

    @Test func insert_withOpenerAndDesiredIndex_desiredIndexWins() throws {
        var (list, names) = try WebStateListNotation.parse("| a* b c")
        try list.insert(names.webState("X"), params: .atIndex(3).withOpener(names.opener("a")))
        #expect(names.format(list) == "| a* b c X")
    }

    @Test func insert_withPinnedOpener_goesToRegularTabs() throws {
        var (list, names) = try WebStateListNotation.parse("a* | b")
        try list.insert(names.webState("X"), params: .automatic().withOpener(names.opener("a")))
        #expect(names.format(list) == "a* | X b")
    }

    @Test func insert_inheritingOpener_usesActiveTabAndClearsAllOpeners() throws {
        var (list, names) = try WebStateListNotation.parse("| a b* c", openers: ["c": "a", "b": "a"])
        let (_, change) = try list.insert(names.webState("X"), params: .automatic().inheritingOpener())
        #expect(names.format(list) == "| a b* X c")
        #expect(names.openers(in: list) == ["X": "b"])
        #expect(change.updated == [names.webStateID("b"), names.webStateID("c")])
    }

    @Test func insert_inheritingOpenerAndExplicitOpener_inheritWins() throws {
        var (list, names) = try WebStateListNotation.parse("| a b* c")
        try list.insert(names.webState("X"), params: .automatic().withOpener(names.opener("a")).inheritingOpener())
        #expect(names.format(list) == "| a b* X c")
        #expect(names.openers(in: list) == ["X": "b"])
    }

    @Test func insert_inheritingOpenerWithoutActiveTab_hasNoOpener() throws {
        var (list, names) = try WebStateListNotation.parse("| a b c", openers: ["c": "a"])
        try list.insert(names.webState("X"), params: .automatic().inheritingOpener())
        #expect(names.format(list) == "| a b c X")
        #expect(names.openers(in: list).isEmpty)
    }

    @Test func insert_inheritingOpener_recordsOpenerNavigationIndex() throws {
        var (list, names) = try WebStateListNotation.parse("| a*", navigationIndexes: ["a": 4])
        try list.insert(names.webState("X"), params: .automatic().inheritingOpener())
        #expect(list.webStates[1].opener == names.opener("a", navigationIndex: 4))
    }

    @Test func insert_withGroupedOpener_joinsOpenersGroup() throws {
        var (list, names) = try WebStateListNotation.parse("| a [ 0 b* c ] d")
        try list.insert(names.webState("X"), params: .automatic().withOpener(names.opener("b")))
        #expect(names.format(list) == "| a [ 0 b* X c ] d")
    }

    @Test func insert_withGroupedOpenerAndPin_deducedGroupWins() throws {
        var (list, names) = try WebStateListNotation.parse("| a [ 0 b* c ] d")
        try list.insert(names.webState("X"), params: .automatic().withOpener(names.opener("b")).pinned())
        #expect(names.format(list) == "| a [ 0 b* X c ] d")
    }

    @Test func insert_withGroupedOpenerAndChildOutsideGroup_goesToGroupEnd() throws {
        var (list, names) = try WebStateListNotation.parse("| [ 0 a* b ] c", openers: ["c": "a"])
        try list.insert(names.webState("X"), params: .automatic().withOpener(names.opener("a")))
        #expect(names.format(list) == "| [ 0 a* b X ] c")
    }

    @Test func insert_withOpenerAndExplicitGroup_explicitGroupWins() throws {
        var (list, names) = try WebStateListNotation.parse("| [ 0 a* ] [ 1 b ]")
        try list.insert(
            names.webState("X"), params: .automatic().withOpener(names.opener("a")).inGroup(names.groupID("1"))
        )
        #expect(names.format(list) == "| [ 0 a* ] [ 1 X b ]")
    }

    @Test func insert_activate_activatesNewTab() throws {
        var (list, names) = try WebStateListNotation.parse("| a* b")
        let (_, change) = try list.insert(names.webState("X"), params: .automatic().activate())
        #expect(names.format(list) == "| a b X*")
        #expect(change.activeChanged)
        #expect(change.previousActiveID == names.webStateID("a"))
        #expect(change.newActiveID == names.webStateID("X"))
    }

    @Test func insert_beforeActiveTab_shiftsActiveIndex() throws {
        var (list, names) = try WebStateListNotation.parse("| a b*")
        let (_, change) = try list.insert(names.webState("X"), params: .atIndex(1))
        #expect(names.format(list) == "| a X b*")
        #expect(list.activeIndex == 2)
        #expect(!change.activeChanged)
        #expect(change.moved.isEmpty)
    }

    @Test func insert_pinnedAndGrouped_throwsAndLeavesListUnchanged() throws {
        var (list, names) = try WebStateListNotation.parse("| [ 0 a ]")
        #expect(throws: WebStateListError.pinnedAndGrouped) {
            try list.insert(names.webState("X"), params: .automatic().pinned().inGroup(names.groupID("0")))
        }
        #expect(names.format(list) == "| [ 0 a ]")
    }

    @Test func insert_unknownGroup_throws() throws {
        var (list, names) = try WebStateListNotation.parse("| a")
        #expect(throws: WebStateListError.unknownGroup(names.groupID("7"))) {
            try list.insert(names.webState("X"), params: .automatic().inGroup(names.groupID("7")))
        }
    }

    @Test func insert_duplicateTab_throws() throws {
        var (list, names) = try WebStateListNotation.parse("| a")
        #expect(throws: WebStateListError.duplicateWebState(names.webStateID("a"))) {
            try list.insert(names.webState("a"), params: .automatic())
        }
    }

    @Test func insert_unknownOpener_throws() throws {
        var (list, names) = try WebStateListNotation.parse("| a")
        #expect(throws: WebStateListError.unknownWebState(names.webStateID("z"))) {
            try list.insert(names.webState("X"), params: .automatic().withOpener(names.opener("z")))
        }
        #expect(names.format(list) == "| a")
    }

    @Test func insert_intoEmptyList_createsSingleTab() throws {
        var (list, names) = try WebStateListNotation.parse("|")
        try list.insert(names.webState("X"), params: .automatic().activate())
        #expect(names.format(list) == "| X*")
    }
}
