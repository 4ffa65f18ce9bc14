import Foundation
import SessionModel
import SessionTestSupport
import Testing

@Suite struct WebStateListNotationTests {
    @Test(arguments: [
        "|",
        "| a",
        "a |",
        "| a b",
        "a b |",
        "a* b | c",
        "a b | [ 0 c d* ] e",
        "| [ 0 a ] [ 1 b c ] d",
        "| _ a _",
        "A | [ 9 B ]",
    ])
    func parse_validString_roundTrips(_ text: String) throws {
        let (list, names) = try WebStateListNotation.parse(text)
        #expect(names.format(list) == text)
    }

    @Test(arguments: [
        ("a b|[0 c d*]e", "a b | [ 0 c d* ] e"),
        ("  |  a  b  ", "| a b"),
        ("|[0a][1b]", "| [ 0 a ] [ 1 b ]"),
    ])
    func parse_looseSpacing_printsCanonically(_ text: String, _ expected: String) throws {
        let (list, names) = try WebStateListNotation.parse(text)
        #expect(names.format(list) == expected)
    }

    @Test func parse_pinnedGroupsActive_buildsMatchingList() throws {
        let (list, names) = try WebStateListNotation.parse("a b | [ 0 c d* ] e")
        #expect(list.count == 5)
        #expect(list.pinnedCount == 2)
        #expect(list.activeIndex == 3)
        #expect(list.range(of: names.groupID("0")) == 2..<4)
        #expect(list.webStates.map(\.id) == ["a", "b", "c", "d", "e"].map(names.webStateID))
        #expect(list.groups.count == 1)
    }

    @Test(arguments: [
        ("| a [ 0 b", WebStateListNotationError.unbalancedBrackets),
        ("| a ] b", .unbalancedBrackets),
        ("| a [ 0 b [ 1 c ] ]", .nestedGroup),
        ("[ 0 a ] | b", .pinnedInsideGroup),
        ("| [ 0 a | b ]", .pinnedInsideGroup),
        ("| a* b*", .twoActiveTabs),
        ("| a b a", .duplicateName("a")),
        ("| [ 0 a ] [ 0 b ]", .duplicateGroupLabel("0")),
        ("a b", .missingPinnedSeparator),
        ("a | b | c", .extraPinnedSeparator),
        ("| * a", .misplacedActiveMarker),
        ("| a [ 0 * b ]", .misplacedActiveMarker),
        ("| [ a ]", .missingGroupLabel),
        ("| [ 0 ]", .emptyGroup("0")),
        ("| a 1", .misplacedGroupLabel),
        ("| a, b", .invalidCharacter(",")),
        ("| a [ 12 b ]", .misplacedGroupLabel),
    ])
    func parse_invalidString_throws(_ text: String, _ error: WebStateListNotationError) {
        #expect(throws: error) { try WebStateListNotation.parse(text) }
    }

    @Test func parse_unknownOpenerName_throws() {
        #expect(throws: WebStateListNotationError.unknownName("z")) {
            try WebStateListNotation.parse("| a b", openers: ["b": "z"])
        }
    }

    @Test func parse_openers_linkTabsByNameWithOpenerNavigationIndex() throws {
        let (list, names) = try WebStateListNotation.parse(
            "| a* b c", openers: ["b": "a", "c": "a"], navigationIndexes: ["a": 2], openerNavigationIndexes: ["c": 1]
        )
        #expect(names.openers(in: list) == ["b": "a", "c": "a"])
        #expect(list.webStates[0].navigationIndex == 2)
        #expect(list.webStates[1].opener == names.opener("a", navigationIndex: 2))
        #expect(list.webStates[2].opener == names.opener("a", navigationIndex: 1))
    }

    @Test func parse_groupVisualData_isApplied() throws {
        let collapsed = TabGroupVisualData(title: "Work", color: .blue, isCollapsed: true)
        let (list, names) = try WebStateListNotation.parse("| [ 0 a ] [ 1 b ]", groups: ["1": collapsed])
        #expect(list.groups[names.groupID("1")]?.visualData == collapsed)
        #expect(list.groups[names.groupID("0")]?.visualData == TabGroupVisualData())
    }

    @Test func format_newTabWithName_printsName_unknownTab_printsUnderscore() throws {
        var (list, names) = try WebStateListNotation.parse("| a")
        try list.insert(names.webState("X"), params: .automatic())
        try list.insert(WebState(), params: .automatic())
        #expect(names.format(list) == "| a X _")
    }

    @Test func format_assignedName_namesForeignIdentifier() throws {
        var (list, names) = try WebStateListNotation.parse("| a")
        let foreign = WebState()
        try list.insert(foreign, params: .automatic())
        names.assign("f", to: foreign.id)
        #expect(names.format(list) == "| a f")
        #expect(names.webStateID("f") == foreign.id)
    }

    @Test func parse_scopes_deriveDifferentIdentifiers() throws {
        let (first, firstNames) = try WebStateListNotation.parse("| a", scope: 1)
        let (second, secondNames) = try WebStateListNotation.parse("| a", scope: 2)
        #expect(first.webStates[0].id != second.webStates[0].id)
        #expect(firstNames.format(first) == "| a")
        #expect(secondNames.format(first) == "| _")
    }

    @Test func webStateID_isLowercaseCanonicalAndReadable() {
        #expect(WebStateListNotation().webStateID("a").uuidString == "00000000-7400-4000-8000-000000000061")
    }
}
