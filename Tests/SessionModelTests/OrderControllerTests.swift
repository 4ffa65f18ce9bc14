import Foundation
import SessionModel
import Testing

/// A hand-written source: tabs named by position, openers by index, optional groups.
private struct FakeSource: OrderControllerSource {
    var count: Int
    var pinnedCount = 0
    /// Child index to (opener index, recorded opener navigation index).
    var openers: [Int: (index: Int, navigationIndex: Int?)] = [:]
    var navigationIndexes: [Int: Int] = [:]
    var groups: [Int: Int] = [:]  // tab index to group number
    var collapsedGroups: Set<Int> = []

    func id(at index: Int) -> WebStateID {
        WebStateID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index))!
    }

    func opener(at index: Int) -> WebStateOpener? {
        openers[index].map { WebStateOpener(openerID: id(at: $0.index), navigationIndex: $0.navigationIndex) }
    }

    func navigationIndex(at index: Int) -> Int? { navigationIndexes[index] }

    func groupID(at index: Int) -> TabGroupID? { groups[index].map(groupID(number:)) }

    func range(of group: TabGroupID) -> Range<Int>? {
        let indexes = (0..<count).filter { groupID(at: $0) == group }
        guard let first = indexes.first, let last = indexes.last else { return nil }
        return first..<(last + 1)
    }

    func isCollapsed(group: TabGroupID) -> Bool {
        collapsedGroups.contains { groupID(number: $0) == group }
    }

    func index(of id: WebStateID) -> Int? {
        (0..<count).first { self.id(at: $0) == id }
    }

    func childIndexes(ofOpener id: WebStateID) -> [Int] {
        (0..<count).filter { opener(at: $0)?.openerID == id }
    }

    func groupID(number: Int) -> TabGroupID {
        TabGroupID(uuidString: String(format: "00000000-0000-4000-9000-%012d", number))!
    }
}

@Suite struct OrderControllerTests {
    @Test func insertionIndex_automatic_returnsRangeEnd() {
        let controller = OrderController(source: FakeSource(count: 4))
        #expect(controller.insertionIndex(desiredIndex: nil, openerIndex: nil, in: 1...4) == 4)
    }

    @Test(arguments: [(2, 2), (1, 1), (4, 4), (0, 4), (5, 4), (-1, 4)])
    func insertionIndex_desiredIndex_winsInsideRangeElseEnd(_ desired: Int, _ expected: Int) {
        let controller = OrderController(source: FakeSource(count: 4))
        #expect(controller.insertionIndex(desiredIndex: desired, openerIndex: nil, in: 1...4) == expected)
    }

    @Test func insertionIndex_withOpener_afterLastCurrentChild() {
        var source = FakeSource(count: 5)
        source.openers = [1: (0, nil), 2: (0, nil), 3: (1, nil)]  // 3 is a grandchild
        let controller = OrderController(source: source)
        #expect(controller.insertionIndex(desiredIndex: nil, openerIndex: 0, in: 0...5) == 3)
    }

    @Test func insertionIndex_withOpener_staleChildrenIgnored() {
        var source = FakeSource(count: 3)
        source.navigationIndexes = [0: 5]
        source.openers = [1: (0, 5), 2: (0, 4)]
        let controller = OrderController(source: source)
        #expect(controller.insertionIndex(desiredIndex: nil, openerIndex: 0, in: 0...3) == 2)
    }

    @Test func insertionIndex_withOpener_circularScanWraps() {
        var source = FakeSource(count: 4)
        source.openers = [0: (1, nil), 2: (1, nil)]  // children on both sides of the opener at 1
        let controller = OrderController(source: source)
        #expect(controller.insertionIndex(desiredIndex: nil, openerIndex: 1, in: 0...4) == 1)
    }

    @Test func nextActiveIndex_noActive_returnsNil() {
        let controller = OrderController(source: FakeSource(count: 3))
        #expect(controller.nextActiveIndex(activeIndex: nil, removing: [0]) == nil)
    }

    @Test func nextActiveIndex_everyTabRemoved_returnsNil() {
        let controller = OrderController(source: FakeSource(count: 2))
        #expect(controller.nextActiveIndex(activeIndex: 0, removing: [0, 1]) == nil)
    }

    @Test func nextActiveIndex_activeKept_returnsActiveBeforeRemoval() {
        let controller = OrderController(source: FakeSource(count: 3))
        #expect(controller.nextActiveIndex(activeIndex: 2, removing: [0]) == 2)
    }

    @Test func nextActiveIndex_child_ignoresNavigationIndex() {
        var source = FakeSource(count: 3)
        source.navigationIndexes = [1: 3]
        source.openers = [0: (1, 1)]
        #expect(OrderController(source: source).nextActiveIndex(activeIndex: 1, removing: [1]) == 0)
    }

    @Test func nextActiveIndex_siblingThenOpener() {
        var source = FakeSource(count: 4)
        source.openers = [2: (0, nil), 1: (0, nil)]
        let controller = OrderController(source: source)
        #expect(controller.nextActiveIndex(activeIndex: 2, removing: [2]) == 1)
        #expect(controller.nextActiveIndex(activeIndex: 2, removing: [1, 2]) == 0)
    }

    @Test func nextActiveIndex_sameGroup_prefersGroupOverSegment() {
        var source = FakeSource(count: 4)
        source.groups = [1: 0, 2: 0]
        #expect(OrderController(source: source).nextActiveIndex(activeIndex: 2, removing: [2]) == 1)
    }

    @Test func nextActiveIndex_collapsedGroup_skippedThenUsed() {
        var source = FakeSource(count: 4)
        source.groups = [2: 0, 3: 0]
        source.collapsedGroups = [0]
        let controller = OrderController(source: source)
        #expect(controller.nextActiveIndex(activeIndex: 1, removing: [1]) == 0)
        #expect(controller.nextActiveIndex(activeIndex: 1, removing: [0, 1]) == 2)
    }

    @Test func nextActiveIndex_pinnedSegmentEmptied_usesRegularSegment() {
        var source = FakeSource(count: 3)
        source.pinnedCount = 1
        #expect(OrderController(source: source).nextActiveIndex(activeIndex: 0, removing: [0]) == 1)
    }
}
