import SessionModel
import SessionTestSupport
import Testing

@Suite struct WebStateListMoveTests {
    @Test(arguments: [
        ("a b | c* d e", 2, 4, "a b | d e c*"),  // regular tab, active follows
        ("a b | c d", 3, 0, "a b | d c"),  // clamped to the regular segment
        ("a b | c d", 0, 3, "b a | c d"),  // clamped to the pinned segment
        ("| a b* c", 0, 2, "| b* c a"),  // active index shifts
        ("| a b c*", 2, -5, "| c* a b"),  // negative target: first regular index
        ("| a [ 0 b c ] d", 0, 1, "| [ 0 b a c ] d"),  // between two tabs of a group: joins it
        ("| a [ 0 b c ] d", 0, 2, "| [ 0 b c ] a d"),  // just past the group: stays ungrouped
        ("| a [ 0 b c ] d", 3, 2, "| a [ 0 b d c ]"),  // moving left into a group
        ("| a [ 0 b c ] d", 3, 1, "| a d [ 0 b c ]"),  // before the group: stays ungrouped
        ("| [ 0 a b c ] d", 0, 2, "| [ 0 b c a ] d"),  // inside its own group: stays
        ("| [ 0 a b c ] d", 1, 3, "| [ 0 a c ] d b"),  // out of its group: ungrouped
        ("| [ 0 a ] b c", 0, 2, "| b c a"),  // the emptied group is deleted
        ("| [ 0 a ] [ 1 b c ]", 0, 1, "| [ 1 b a c ]"),  // from one group into another
    ])
    func move_appliesSegmentAndGroupRules(_ before: String, _ from: Int, _ to: Int, _ expected: String) throws {
        var (list, names) = try WebStateListNotation.parse(before)
        try list.move(from: from, to: to)
        #expect(names.format(list) == expected)
    }

    @Test func move_toOwnIndex_changesNothing() throws {
        var (list, names) = try WebStateListNotation.parse("| a [ 0 b* ] c")
        let change = try list.move(from: 1, to: 1)
        #expect(change.isEmpty)
        #expect(names.format(list) == "| a [ 0 b* ] c")
    }

    @Test func move_clampedToOwnIndex_changesNothing() throws {
        var (list, names) = try WebStateListNotation.parse("a | b")
        let change = try list.move(from: 0, to: 1)
        #expect(change.isEmpty)
        #expect(names.format(list) == "a | b")
    }

    @Test(arguments: [(0, 3, "a"), (3, 0, "d"), (1, 2, "b")])
    func move_oneTab_reportsOnlyThatTab(_ from: Int, _ to: Int, _ moved: String) throws {
        var (list, names) = try WebStateListNotation.parse("| a b c d")
        let change = try list.move(from: from, to: to)
        #expect(change.moved == [names.webStateID(moved)])
        #expect(change.updated.isEmpty)
    }

    @Test func move_outOfGroup_reportsMovedUpdatedAndDeletedGroup() throws {
        var (list, names) = try WebStateListNotation.parse("| [ 0 a ] b")
        let change = try list.move(from: 0, to: 1)
        #expect(change.moved == [names.webStateID("a")])
        #expect(change.updated == [names.webStateID("a")])
        #expect(change.groupsDeleted == [names.groupID("0")])
    }

    @Test func move_fromOutOfRange_throws() throws {
        var (list, _) = try WebStateListNotation.parse("| a b")
        #expect(throws: WebStateListError.indexOutOfRange(index: 2, count: 2)) { try list.move(from: 2, to: 0) }
    }
}
