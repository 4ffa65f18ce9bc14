import SessionModel
import SessionTestSupport
import Testing

@Suite struct WebStateListGroupsTests {
    // MARK: - Create

    @Test(arguments: [
        ("| a b c d", [1, 3], "| a [ 1 b d ] c"),  // pivot: the first index
        ("| a b c d e", [3, 1, 4], "| a [ 1 b d e ] c"),  // members keep their list order
        ("a b | c d", [0, 2], "b | [ 1 a c ] d"),  // pivot: the end of the pinned prefix
        ("a b c | d", [0, 1], "c | [ 1 a b ] d"),  // pinned members are unpinned in order
        ("a b | c d", [1, 3], "a | [ 1 b d ] c"),  // a pinned member at the prefix's end
        ("| [ 0 a b c ] d", [1, 3], "| [ 0 a c ] [ 1 b d ]"),  // pivot: after the group it sat inside
        ("| a [ 0 b c ] d", [1, 3], "| a [ 1 b d ] [ 0 c ]"),  // first tab of a group: pivot there
        ("| [ 0 a b ] c", [0, 1], "| [ 1 a b ] c"),  // the emptied group is deleted
        ("| a [ 0 b c ] d", [0, 3], "| [ 1 a d ] [ 0 b c ]"),  // passing over a group whole
        ("| a b* c", [2], "| a b* [ 1 c ]"),  // one member
    ])
    func createGroup_gathersMembersAtPivot(_ before: String, _ indexes: [Int], _ expected: String) throws {
        var (list, names) = try WebStateListNotation.parse(before)
        try list.createGroup(at: indexes, visualData: TabGroupVisualData(), id: names.groupID("1"))
        #expect(names.format(list) == expected)
    }

    @Test func createGroup_reportsCreatedGroupAndOnlyMovedMembers() throws {
        var (list, names) = try WebStateListNotation.parse("| a b c d")
        let visualData = TabGroupVisualData(title: "Work", color: .cyan)
        let (group, change) = try list.createGroup(at: [1, 3], visualData: visualData, id: names.groupID("1"))
        #expect(group == names.groupID("1"))
        #expect(list.groups[group] == TabGroup(id: group, visualData: visualData))
        #expect(change.groupsCreated == [group])
        #expect(change.moved == [names.webStateID("d")])
        #expect(change.updated == [names.webStateID("b"), names.webStateID("d")])
    }

    @Test func createGroup_absorbingGroup_reportsDeletion() throws {
        var (list, names) = try WebStateListNotation.parse("| [ 0 a b ] c")
        let (_, change) = try list.createGroup(at: [0, 1], visualData: TabGroupVisualData(), id: names.groupID("1"))
        #expect(change.groupsDeleted == [names.groupID("0")])
        #expect(change.groupsCreated == [names.groupID("1")])
        #expect(change.moved.isEmpty)
    }

    @Test func createGroup_invalidInput_throwsAndLeavesListUnchanged() throws {
        var (list, names) = try WebStateListNotation.parse("| a [ 0 b ]")
        #expect(throws: WebStateListError.invalidState([.emptyGroup(names.groupID("1"))])) {
            try list.createGroup(at: [], visualData: TabGroupVisualData(), id: names.groupID("1"))
        }
        #expect(throws: WebStateListError.duplicateGroup(names.groupID("0"))) {
            try list.createGroup(at: [0], visualData: TabGroupVisualData(), id: names.groupID("0"))
        }
        #expect(throws: WebStateListError.indexOutOfRange(index: 2, count: 2)) {
            try list.createGroup(at: [0, 2], visualData: TabGroupVisualData(), id: names.groupID("1"))
        }
        #expect(names.format(list) == "| a [ 0 b ]")
    }

    // MARK: - Update

    @Test func updateGroup_newVisualData_reportsGroupUpdate() throws {
        var (list, names) = try WebStateListNotation.parse("| [ 0 a ]")
        let visualData = TabGroupVisualData(title: "News", color: .orange, isCollapsed: true)
        let change = try list.updateGroup(names.groupID("0"), visualData: visualData)
        #expect(list.groups[names.groupID("0")]?.visualData == visualData)
        #expect(change == WebStateListChange(groupsUpdated: [names.groupID("0")]))
        #expect(try list.updateGroup(names.groupID("0"), visualData: visualData).isEmpty)
    }

    @Test func updateGroup_unknownGroup_throws() throws {
        var (list, names) = try WebStateListNotation.parse("| a")
        #expect(throws: WebStateListError.unknownGroup(names.groupID("0"))) {
            try list.updateGroup(names.groupID("0"), visualData: TabGroupVisualData())
        }
    }

    // MARK: - Move into a group

    @Test(arguments: [
        ("a | b [ 0 c d ] e f", [0, 1, 5], "| [ 0 c d a b f ] e"),  // left ones first, then right ones
        ("| a [ 0 b c ] d e", [4, 0, 3], "| [ 0 b c a d e ]"),  // index order does not matter
        ("| [ 0 a b ] c", [0, 2], "| [ 0 a b c ]"),  // tabs already inside stay put
        ("| [ 1 a ] b [ 0 c ]", [0], "| b [ 0 c a ]"),  // the emptied group is deleted
        ("| a b [ 0 c ]", [1, 0], "| [ 0 c a b ]"),  // relative order is kept
    ])
    func moveToGroup_appendsLeftThenRightTabs(_ before: String, _ indexes: [Int], _ expected: String) throws {
        var (list, names) = try WebStateListNotation.parse(before)
        try list.moveToGroup(indexes, group: names.groupID("0"))
        #expect(names.format(list) == expected)
    }

    @Test func moveToGroup_unknownGroup_throws() throws {
        var (list, names) = try WebStateListNotation.parse("| a")
        #expect(throws: WebStateListError.unknownGroup(names.groupID("0"))) {
            try list.moveToGroup([0], group: names.groupID("0"))
        }
    }

    // MARK: - Remove from groups

    @Test(arguments: [
        ("| [ 0 a b c ] d", [0, 1], "| [ 0 c ] a b d"),  // each lands just after its group, in order
        ("a | b [ 0 c d ]", [0, 1, 3], "a | b [ 0 c ] d"),  // pinned and ungrouped tabs are unaffected
        ("| [ 0 a b ] c", [1, 0], "| a b c"),  // the emptied group is deleted
        ("| [ 0 a b ] [ 1 c d ]", [0, 2], "| [ 0 b ] a [ 1 d ] c"),  // several groups
    ])
    func removeFromGroups_landsAfterGroup(_ before: String, _ indexes: [Int], _ expected: String) throws {
        var (list, names) = try WebStateListNotation.parse(before)
        try list.removeFromGroups(indexes)
        #expect(names.format(list) == expected)
    }

    @Test func removeFromGroups_inPlace_reportsUpdatesWithoutMoves() throws {
        var (list, names) = try WebStateListNotation.parse("| [ 0 a b ] c")
        let change = try list.removeFromGroups([0, 1])
        #expect(change.moved.isEmpty)
        #expect(change.updated == [names.webStateID("a"), names.webStateID("b")])
        #expect(change.groupsDeleted == [names.groupID("0")])
    }

    // MARK: - Move a group

    @Test(arguments: [
        ("| [ 0 a b ] c d", 4, "| c d [ 0 a b ]"),  // to the end
        ("| [ 0 a b ] c d", 99, "| c d [ 0 a b ]"),  // clamped to the end
        ("| c d [ 0 a b ]", 1, "| c [ 0 a b ] d"),  // leftwards
        ("a | b [ 0 c ]", 0, "a | [ 0 c ] b"),  // clamped to the regular tabs
        ("| a [ 1 b c ] [ 0 d ]", 2, "| a [ 0 d ] [ 1 b c ]"),  // inside another group: snaps to its start
        ("| [ 0 a ] b [ 1 c d ] e", 3, "| b [ 0 a ] [ 1 c d ] e"),  // snapping while moving right
        ("| a [ 0 b c ] d", 2, "| a [ 0 b c ] d"),  // inside the group itself: nothing
        ("| a [ 0 b c ] d", 3, "| a [ 0 b c ] d"),  // just after the group itself: nothing
        ("| a [ 0 b c ] d", 1, "| a [ 0 b c ] d"),  // at its own start: nothing
    ])
    func moveGroup_clampsAndSnaps(_ before: String, _ index: Int, _ expected: String) throws {
        var (list, names) = try WebStateListNotation.parse(before)
        try list.moveGroup(names.groupID("0"), before: index)
        #expect(names.format(list) == expected)
    }

    @Test func moveGroup_reportsGroupTabsAsMoved_activeTabUnchanged() throws {
        var (list, names) = try WebStateListNotation.parse("| [ 0 a b* ] c d e f")
        let change = try list.moveGroup(names.groupID("0"), before: 6)
        #expect(names.format(list) == "| c d e f [ 0 a b* ]")
        #expect(change.moved == [names.webStateID("a"), names.webStateID("b")])
        #expect(change.updated.isEmpty)
        #expect(!change.activeChanged)
    }

    @Test func moveGroup_toItself_changesNothing() throws {
        var (list, names) = try WebStateListNotation.parse("| a [ 0 b c ] d")
        #expect(try list.moveGroup(names.groupID("0"), before: 2).isEmpty)
    }

    // MARK: - Delete

    @Test func deleteGroup_keepsTabsInPlaceUngrouped() throws {
        var (list, names) = try WebStateListNotation.parse("| a [ 0 b* c ] d")
        let change = try list.deleteGroup(names.groupID("0"))
        #expect(names.format(list) == "| a b* c d")
        #expect(
            change
                == WebStateListChange(
                    updated: [names.webStateID("b"), names.webStateID("c")], groupsDeleted: [names.groupID("0")]
                )
        )
    }

    @Test func deleteGroup_unknownGroup_throws() throws {
        var (list, names) = try WebStateListNotation.parse("| a")
        #expect(throws: WebStateListError.unknownGroup(names.groupID("0"))) { try list.deleteGroup(names.groupID("0")) }
    }

    // MARK: - Reading

    @Test func orderedGroups_followListOrder() throws {
        let (list, names) = try WebStateListNotation.parse("| [ 2 a ] b [ 0 c ] [ 1 d ]")
        #expect(list.orderedGroups.map(\.id) == ["2", "0", "1"].map(names.groupID))
    }
}
