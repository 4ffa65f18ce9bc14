import Foundation
import SessionModel
import SessionTestSupport
import Testing

@Suite struct WebStateListActivationTests {
    @Test func activate_otherTab_activatesIt() throws {
        var (list, names) = try WebStateListNotation.parse("| a* b c")
        let change = try list.activate(at: 2)
        #expect(names.format(list) == "| a b c*")
        #expect(
            change
                == WebStateListChange(
                    previousActiveID: names.webStateID("a"), newActiveID: names.webStateID("c"), activeChanged: true
                )
        )
    }

    @Test func activate_activeTab_changesNothing() throws {
        var (list, names) = try WebStateListNotation.parse("| a* b")
        let change = try list.activate(at: 0)
        #expect(change.isEmpty)
        #expect(names.format(list) == "| a* b")
    }

    @Test func activate_none_leavesNoActiveTab() throws {
        var (list, names) = try WebStateListNotation.parse("| a* b")
        let change = try list.activate(at: nil)
        #expect(names.format(list) == "| a b")
        #expect(change.activeChanged)
        #expect(change.newActiveID == nil)
    }

    @Test func activate_outOfRange_throws() throws {
        var (list, names) = try WebStateListNotation.parse("| a* b")
        #expect(throws: WebStateListError.indexOutOfRange(index: 5, count: 2)) { try list.activate(at: 5) }
        #expect(names.format(list) == "| a* b")
    }

    @Test func replace_activeGroupedTab_keepsPlaceGroupAndActivation() throws {
        var (list, names) = try WebStateListNotation.parse("a | [ 0 b* c ] d")
        let (replaced, change) = try list.replace(at: 1, with: names.webState("X"))
        #expect(names.format(list) == "a | [ 0 X* c ] d")
        #expect(replaced.id == names.webStateID("b"))
        #expect(change.inserted == [names.webStateID("X")])
        #expect(change.removed.map(\.index) == [1])
        #expect(change.removed.first?.groupID == names.groupID("0"))
        #expect(change.activeChanged)
        #expect(change.moved.isEmpty)
    }

    @Test func replace_pinnedTab_staysPinned() throws {
        var (list, names) = try WebStateListNotation.parse("a* b | c")
        try list.replace(at: 0, with: names.webState("X"))
        #expect(names.format(list) == "X* b | c")
    }

    @Test func replace_clearsNewTabsOpenerAndChildrensOpeners() throws {
        var (list, names) = try WebStateListNotation.parse("| a b c d", openers: ["b": "a", "c": "b", "d": "a"])
        var newTab = names.webState("X")
        newTab.opener = names.opener("a")
        let (_, change) = try list.replace(at: 1, with: newTab)
        #expect(names.format(list) == "| a X c d")
        #expect(names.openers(in: list) == ["d": "a"])
        #expect(change.updated == [names.webStateID("c")])
    }

    @Test func replace_duplicateTab_throws() throws {
        var (list, names) = try WebStateListNotation.parse("| a b")
        #expect(throws: WebStateListError.duplicateWebState(names.webStateID("b"))) {
            try list.replace(at: 0, with: names.webState("b"))
        }
    }

    @Test func setNavigationIndex_changed_reportsUpdate() throws {
        var (list, names) = try WebStateListNotation.parse("| a b")
        let change = try list.setNavigationIndex(3, forTabAt: 1)
        #expect(list.webStates[1].navigationIndex == 3)
        #expect(change == WebStateListChange(updated: [names.webStateID("b")]))
        #expect(try list.setNavigationIndex(3, forTabAt: 1).isEmpty)
    }

    @Test func setNavigationIndex_openerNavigatesAway_childrenStopCountingForPlacement() throws {
        var (list, names) = try WebStateListNotation.parse("| a* b c", openers: ["b": "a"])
        try list.setNavigationIndex(1, forTabAt: 0)
        try list.insert(names.webState("X"), params: .automatic().withOpener(names.opener("a", navigationIndex: 1)))
        #expect(names.format(list) == "| a* X b c")
    }

    @Test func setLastActiveAt_changed_reportsUpdate() throws {
        var (list, names) = try WebStateListNotation.parse("| a b")
        let date = Date(timeIntervalSince1970: 1000)
        let change = try list.setLastActiveAt(date, forTabAt: 0)
        #expect(list.webStates[0].lastActiveAt == date)
        #expect(change == WebStateListChange(updated: [names.webStateID("a")]))
    }
}
