import SessionModel
import SessionTestSupport
import Testing

@Suite struct WebStateListPinningTests {
    @Test(arguments: [
        ("a | b c* d", true, 2, "a c* | b d", 1),  // to the end of the pinned prefix
        ("a* b | c", false, 0, "b | c a*", 2),  // to the end of the list
        ("| [ 0 a b ] c", true, 1, "b | [ 0 a ] c", 0),  // leaves its group
        ("| [ 0 a ] b", true, 0, "a | b", 0),  // the emptied group is deleted
        ("a | b c", true, 1, "a b | c", 1),  // already at the pinned prefix's end
        ("a b |", false, 1, "a | b", 1),  // already at the list's end
        ("a | b", true, 0, "a | b", 0),  // pinning a pinned tab changes nothing
        ("a | b", false, 1, "a | b", 1),  // unpinning a regular tab changes nothing
    ])
    func setPinned_movesToSegmentEnd(
        _ before: String, _ pinned: Bool, _ index: Int, _ expected: String, _ expectedIndex: Int
    ) throws {
        var (list, names) = try WebStateListNotation.parse(before)
        let (newIndex, _) = try list.setPinned(pinned, at: index)
        #expect(names.format(list) == expected)
        #expect(newIndex == expectedIndex)
    }

    @Test func setPinned_alreadyPinned_reportsNoChange() throws {
        var (list, _) = try WebStateListNotation.parse("a | b")
        let (_, change) = try list.setPinned(true, at: 0)
        #expect(change.isEmpty)
    }

    @Test func setPinned_inPlace_reportsUpdateWithoutMove() throws {
        var (list, names) = try WebStateListNotation.parse("a | b c")
        let (_, change) = try list.setPinned(true, at: 1)
        #expect(change.moved.isEmpty)
        #expect(change.updated == [names.webStateID("b")])
    }

    @Test func setPinned_acrossTabs_reportsMoveAndUpdate() throws {
        var (list, names) = try WebStateListNotation.parse("a | b c* d")
        let (_, change) = try list.setPinned(true, at: 2)
        #expect(change.moved == [names.webStateID("c")])
        #expect(change.updated == [names.webStateID("c")])
        #expect(!change.activeChanged)
    }

    @Test func setPinned_outOfRange_throws() throws {
        var (list, _) = try WebStateListNotation.parse("a |")
        #expect(throws: WebStateListError.indexOutOfRange(index: 1, count: 1)) { try list.setPinned(false, at: 1) }
    }
}
