import Foundation
import SessionModel
import SessionTestSupport
import Testing

@Suite struct WebStateListInvariantsTests {
    static let names = WebStateListNotation()
    static let a = names.webStateID("a")
    static let b = names.webStateID("b")
    static let c = names.webStateID("c")
    static let g0 = names.groupID("0")
    static let g1 = names.groupID("1")

    @Test func violations_validList_isEmpty() {
        let entries = [
            WebStateListEntry(id: Self.a, isPinned: true),
            WebStateListEntry(id: Self.b, groupID: Self.g0, openerID: Self.a),
            WebStateListEntry(id: Self.c, groupID: Self.g0),
        ]
        #expect(WebStateListInvariants.violations(entries: entries, groups: [Self.g0], activeIndex: 2).isEmpty)
        #expect(WebStateListInvariants.violations(entries: [], groups: [], activeIndex: nil).isEmpty)
    }

    @Test func violations_eachBrokenRule_isReported() {
        let entries = [
            WebStateListEntry(id: Self.a, groupID: Self.g0),
            WebStateListEntry(id: Self.b, isPinned: true, groupID: Self.g1),
            WebStateListEntry(id: Self.a, groupID: Self.g0, openerID: Self.c),
        ]
        let violations = WebStateListInvariants.violations(entries: entries, groups: [Self.g0], activeIndex: 3)
        #expect(
            violations == [
                .duplicateID(Self.a),
                .pinnedNotPrefix(index: 1),
                .pinnedAndGrouped(index: 1),
                .unknownGroup(index: 1, Self.g1),
                .openerNotInList(index: 2, opener: Self.c),
                .groupNotContiguous(Self.g0),
                .activeIndexOutOfRange(3),
            ]
        )
    }

    @Test func violations_declaredGroupWithoutTabs_isEmptyGroup() {
        let entries = [WebStateListEntry(id: Self.a)]
        #expect(
            WebStateListInvariants.violations(entries: entries, groups: [Self.g0], activeIndex: nil)
                == [.emptyGroup(Self.g0)]
        )
    }

    @Test func violations_openerLaterInList_isAccepted() {
        let entries = [WebStateListEntry(id: Self.a, openerID: Self.b), WebStateListEntry(id: Self.b)]
        #expect(WebStateListInvariants.violations(entries: entries, groups: [], activeIndex: -1)
            == [.activeIndexOutOfRange(-1)])
    }

    @Test func initFromParts_invalid_throwsEveryViolation() {
        #expect(throws: WebStateListError.invalidState([.groupNotContiguous(Self.g0)])) {
            try WebStateList(
                webStates: [Self.names.webState("a"), Self.names.webState("b"), Self.names.webState("c")],
                pinnedCount: 0,
                groupIDs: [Self.g0, nil, Self.g0],
                groups: [TabGroup(id: Self.g0)],
                activeIndex: nil
            )
        }
    }

    @Test func initFromParts_mismatchedCounts_throwsIndexOutOfRange() {
        #expect(throws: WebStateListError.indexOutOfRange(index: 2, count: 1)) {
            try WebStateList(
                webStates: [Self.names.webState("a")], pinnedCount: 2, groupIDs: [nil], groups: [], activeIndex: nil
            )
        }
        #expect(throws: WebStateListError.indexOutOfRange(index: 0, count: 1)) {
            try WebStateList(
                webStates: [Self.names.webState("a")], pinnedCount: 0, groupIDs: [], groups: [], activeIndex: nil
            )
        }
    }

    @Test func initFromParts_valid_matchesParsedList() throws {
        let (parsed, names) = try WebStateListNotation.parse("a | [ 0 b* ]")
        let built = try WebStateList(
            webStates: parsed.webStates, pinnedCount: 1, groupIDs: [nil, names.groupID("0")],
            groups: [TabGroup(id: names.groupID("0"))], activeIndex: 1
        )
        #expect(built == parsed)
        #expect(built.entries.map(\.isPinned) == [true, false])
    }

    @Test func descriptions_arePlainSentences() {
        let violation = WebStateListViolation.pinnedNotPrefix(index: 3)
        #expect(violation.description == "The pinned tab at index 3 follows a regular tab.")
        #expect(
            WebStateListError.invalidState([violation, .activeIndexOutOfRange(9)]).description
                == "The tab list breaks 2 invariant(s): The pinned tab at index 3 follows a regular tab; "
                + "The active index 9 designates no tab."
        )
        #expect(
            WebStateListError.indexOutOfRange(index: 4, count: 2).description
                == "Index 4 is out of range for a list of 2 tabs."
        )
    }

    @Test func identifiers_areLowercaseAndCodableAsOneString() throws {
        let id = try #require(WebStateID(uuidString: "3F2A8C1E-0B7D-4C55-9A61-2E4F0D9B7C13"))
        #expect(id.description == "3f2a8c1e-0b7d-4c55-9a61-2e4f0d9b7c13")
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self) == "[\"3f2a8c1e-0b7d-4c55-9a61-2e4f0d9b7c13\"]")
        #expect(try JSONDecoder().decode([WebStateID].self, from: data) == [id])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([BrowserID].self, from: Data("[\"x\"]".utf8)) }
        #expect(TabGroupID(uuidString: "nope") == nil)
    }
}

@Suite struct WebStateListRandomSequenceTests {
    @Test(arguments: 0..<25)
    func randomMutations_keepEveryInvariant(_ seed: Int) {
        var mutations = RandomWebStateListMutations(seed: UInt64(seed) &* 7919)
        var list = WebStateList()
        for step in 0..<200 {
            _ = mutations.apply(to: &list)
            let violations = ChangeChecks.violations(of: list)
            #expect(violations.isEmpty, "step \(step): \(violations)")
            if !violations.isEmpty { return }
        }
    }
}
