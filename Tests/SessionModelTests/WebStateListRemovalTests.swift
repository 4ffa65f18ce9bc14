import SessionModel
import SessionTestSupport
import Testing

/// One removal case: a list (with openers and collapsed groups), the indexes removed, the result.
struct RemovalCase: Sendable, CustomTestStringConvertible {
    var before: String
    var removing: [Int]
    var expected: String
    var openers: [String: String] = [:]
    var collapsed: [String] = []
    var staleChildren: [String] = []

    var testDescription: String { "\"\(before)\" remove \(removing) -> \"\(expected)\"" }
}

@Suite struct WebStateListRemovalTests {
    static let nextActiveCases: [RemovalCase] = [
        // Step 1: no active tab, or every tab removed.
        RemovalCase(before: "| a b c", removing: [1], expected: "| a c"),
        RemovalCase(before: "a | b*", removing: [0, 1], expected: "|"),
        // Step 2: the active tab is not removed.
        RemovalCase(before: "| a b* c", removing: [0], expected: "| b* c"),
        // Step 3: the first surviving child, after the active tab first.
        RemovalCase(before: "| a b* c d", removing: [1], expected: "| a c* d", openers: ["c": "b", "d": "b"]),
        // Step 3: the circular scan finds a child before the active tab.
        RemovalCase(before: "| a b c* d", removing: [2], expected: "| a* b d", openers: ["a": "c"]),
        // Step 3: the opener navigation index is ignored.
        RemovalCase(
            before: "| c a* b", removing: [1], expected: "| c* b", openers: ["c": "a"], staleChildren: ["c"]
        ),
        // Step 3: a removed child is skipped.
        RemovalCase(before: "| a* b c d", removing: [0, 1], expected: "| c* d", openers: ["b": "a", "c": "a"]),
        // Step 3 crosses segments.
        RemovalCase(before: "a* | b c", removing: [0], expected: "| b c*", openers: ["c": "a"]),
        // Step 4: the first surviving sibling after the active tab.
        RemovalCase(before: "| a b* c d", removing: [1], expected: "| a c d*", openers: ["b": "a", "d": "a"]),
        // Step 4: the circular scan finds a sibling before the active tab, skipping the opener.
        RemovalCase(before: "| a c b* d", removing: [2], expected: "| a c* d", openers: ["c": "a", "b": "a"]),
        // Step 4: no sibling: the opener itself.
        RemovalCase(before: "| a b* c", removing: [1], expected: "| a* c", openers: ["b": "a"]),
        // Step 4: the opener is removed too: falls through to step 6.
        RemovalCase(before: "| a b* c d", removing: [0, 1], expected: "| c* d", openers: ["b": "a"]),
        // Step 5: removed tabs in one group: the nearest survivor in the group, even before.
        RemovalCase(before: "| a [ 0 b c* ] d", removing: [2], expected: "| a [ 0 b* ] d"),
        RemovalCase(before: "| a [ 0 b c* d ] e", removing: [2], expected: "| a [ 0 b d* ] e"),
        // Step 5: the whole group is removed: step 6.
        RemovalCase(before: "| a [ 0 b* c ] d", removing: [1, 2], expected: "| a d*"),
        // Step 5: first and last removed in different groups: step 6.
        RemovalCase(before: "| [ 0 a b* ] [ 1 c d ]", removing: [1, 2], expected: "| [ 0 a ] [ 1 d* ]"),
        // Step 6: the first survivor after the active tab.
        RemovalCase(before: "| a b* c", removing: [1], expected: "| a c*"),
        // Step 6: none after: the first one before.
        RemovalCase(before: "| a b c*", removing: [2], expected: "| a b*"),
        RemovalCase(before: "| a b c d*", removing: [1, 3], expected: "| a c*"),
        // Step 6: after wins over a closer one before.
        RemovalCase(before: "| a b c* d e f", removing: [2, 3, 4], expected: "| a b f*"),
        // Step 6: tabs of collapsed groups are skipped.
        RemovalCase(before: "| a b* [ 0 c d ] e", removing: [1], expected: "| a [ 0 c d ] e*", collapsed: ["0"]),
        RemovalCase(before: "| a [ 0 c d ] b*", removing: [3], expected: "| a* [ 0 c d ]", collapsed: ["0"]),
        // Step 6: only collapsed tabs left in the segment: collapse is ignored.
        RemovalCase(before: "| a* [ 0 b c ]", removing: [0], expected: "| [ 0 b* c ]", collapsed: ["0"]),
        // Step 6: an expanded group is not skipped.
        RemovalCase(before: "| a b* [ 0 c d ] e", removing: [1], expected: "| a [ 0 c* d ] e"),
        // Step 6: the segment is empty: the nearest in the other segment.
        RemovalCase(before: "a b | c*", removing: [2], expected: "a b* |"),
        RemovalCase(before: "a* | b c", removing: [0], expected: "| b* c"),
        // Step 6: a pinned active tab prefers a pinned tab, even before it.
        RemovalCase(before: "a b* | c", removing: [1], expected: "a* | c"),
    ]

    @Test(arguments: nextActiveCases)
    func remove_activeTab_choosesNextActiveBySteps(_ testCase: RemovalCase) throws {
        var (list, names) = try WebStateListNotation.parse(
            testCase.before,
            openers: testCase.openers,
            navigationIndexes: Dictionary(testCase.openers.values.map { ($0, 1) }, uniquingKeysWith: { first, _ in first }),
            openerNavigationIndexes: Dictionary(uniqueKeysWithValues: testCase.staleChildren.map { ($0, 0) }),
            groups: Dictionary(
                uniqueKeysWithValues: testCase.collapsed.map { ($0, TabGroupVisualData(isCollapsed: true)) }
            )
        )
        let change = try list.remove(RemovingIndexes(testCase.removing))
        #expect(names.format(list) == testCase.expected)
        #expect(change.removed.count == testCase.removing.count)
    }

    @Test func remove_single_matchesSetOfOne() throws {
        var (list, names) = try WebStateListNotation.parse("| a* b c", openers: ["c": "a"])
        let change = try list.remove(at: 0)
        #expect(names.format(list) == "| b c*")
        #expect(change.activeChanged)
        #expect(change.previousActiveID == names.webStateID("a"))
        #expect(change.newActiveID == names.webStateID("c"))
    }

    @Test func remove_opener_clearsChildrensOpeners() throws {
        var (list, names) = try WebStateListNotation.parse("| a b c d", openers: ["c": "a", "d": "b"])
        let change = try list.remove(at: 0)
        #expect(names.openers(in: list) == ["d": "b"])
        #expect(change.updated == [names.webStateID("c")])
    }

    @Test func remove_lastTabOfGroup_deletesGroup() throws {
        var (list, names) = try WebStateListNotation.parse("| a [ 0 b ] c")
        let change = try list.remove(at: 1)
        #expect(names.format(list) == "| a c")
        #expect(list.groups.isEmpty)
        #expect(change.groupsDeleted == [names.groupID("0")])
    }

    @Test func remove_records_indexPinnedStateAndGroup() throws {
        var (list, names) = try WebStateListNotation.parse("a | b [ 0 c ]")
        let change = try list.remove([0, 2])
        #expect(
            change.removed == [
                RemovedWebState(webState: names.webState("a"), index: 0, wasPinned: true, groupID: nil),
                RemovedWebState(webState: names.webState("c"), index: 2, wasPinned: false, groupID: names.groupID("0")),
            ]
        )
        #expect(change.moved.isEmpty)
    }

    @Test func remove_set_reportsOneActiveChange() throws {
        var (list, names) = try WebStateListNotation.parse("| a b* c d")
        let change = try list.remove([0, 1, 2])
        #expect(names.format(list) == "| d*")
        #expect(change.activeChanged)
        #expect(change.previousActiveID == names.webStateID("b"))
        #expect(change.newActiveID == names.webStateID("d"))
    }

    @Test func remove_emptySet_changesNothing() throws {
        var (list, _) = try WebStateListNotation.parse("| a* b")
        #expect(try list.remove([]).isEmpty)
    }

    @Test func remove_outOfRange_throwsAndLeavesListUnchanged() throws {
        var (list, names) = try WebStateListNotation.parse("| a* b")
        #expect(throws: WebStateListError.indexOutOfRange(index: 2, count: 2)) { try list.remove([0, 2]) }
        #expect(throws: WebStateListError.indexOutOfRange(index: -1, count: 2)) { try list.remove(at: -1) }
        #expect(names.format(list) == "| a* b")
    }

    // MARK: - Bulk closes

    @Test func closeAll_removesEveryTab() throws {
        var (list, names) = try WebStateListNotation.parse("a | b* [ 0 c ]")
        let change = try list.remove(list.indexesForCloseAll())
        #expect(names.format(list) == "|")
        #expect(change.groupsDeleted == [names.groupID("0")])
    }

    @Test func closeAllRegular_keepsPinnedTabs() throws {
        var (list, names) = try WebStateListNotation.parse("a | b* c")
        try list.remove(list.indexesForCloseAllRegular())
        #expect(names.format(list) == "a* |")
    }

    @Test func closingGroup_removesItsTabs() throws {
        var (list, names) = try WebStateListNotation.parse("| a [ 0 b* c ] d")
        try list.remove(list.indexesForClosingGroup(names.groupID("0")))
        #expect(names.format(list) == "| a d*")
    }

    @Test func closingGroup_unknownGroup_throws() throws {
        let (list, names) = try WebStateListNotation.parse("| a")
        #expect(throws: WebStateListError.unknownGroup(names.groupID("0"))) {
            try list.indexesForClosingGroup(names.groupID("0"))
        }
    }

    @Test(arguments: [
        ("a | b c* d", 2, "a | c*"),  // keeps the chosen tab and the pinned ones
        ("a | b* c d", 3, "a | d*"),  // the active tab goes: the kept one is nearest after
        ("a* | b c", 0, "a* |"),  // keeping a pinned tab closes every regular one
    ])
    func closingOthers_keepsPinnedTabs(_ before: String, _ kept: Int, _ expected: String) throws {
        var (list, names) = try WebStateListNotation.parse(before)
        try list.remove(list.indexesForClosingOthers(keeping: kept))
        #expect(names.format(list) == expected)
    }
}
