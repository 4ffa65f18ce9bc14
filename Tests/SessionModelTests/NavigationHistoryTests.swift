import Foundation
import SessionModel
import SessionTestSupport
import Testing

/// Histories as text: `"a b* c"` is three entries titled a, b and c, the second current; `""` is empty.
enum HistoryNotation {
    static let timestamp = Date(timeIntervalSince1970: 1_700_000_000)

    /// An entry named `name`: its title is the name, its URL derived from it.
    static func entry(_ name: String) -> NavigationItem {
        NavigationItem(url: "https://\(name).example/", title: name, timestamp: timestamp)
    }

    /// Builds a history from notation.
    static func history(_ text: String) throws -> NavigationHistory {
        let words = text.split(separator: " ").map(String.init)
        let items = words.map { entry($0.hasSuffix("*") ? String($0.dropLast()) : $0) }
        return try NavigationHistory(items: items, currentIndex: words.firstIndex { $0.hasSuffix("*") })
    }

    /// Prints a history as notation.
    static func text(_ history: NavigationHistory) -> String {
        history.items.enumerated()
            .map { $0.element.title + ($0.offset == history.currentIndex ? "*" : "") }
            .joined(separator: " ")
    }
}

/// One trim case over a history of `count` entries.
struct TrimCase: Sendable, CustomTestStringConvertible {
    var count: Int
    var current: Int
    var maximum: Int
    /// The old indexes that survive.
    var kept: ClosedRange<Int>
    var newCurrent: Int

    var testDescription: String { "\(count) entries at \(current), trim to \(maximum) -> \(kept), at \(newCurrent)" }
}

@Suite struct NavigationHistoryTests {
    typealias N = HistoryNotation

    // MARK: - Creating

    @Test func init_empty_hasNoCurrentIndex() {
        let history = NavigationHistory()
        #expect(history.isEmpty)
        #expect(history.count == 0)
        #expect(history.currentIndex == nil)
        #expect(history.currentItem == nil)
        #expect(!history.canGoBack)
        #expect(!history.canGoForward)
        #expect(history.backItems.isEmpty)
        #expect(history.forwardItems.isEmpty)
    }

    @Test(arguments: [
        ([String](), Int?.some(0), NavigationHistoryError.indexOutOfRange(index: 0, count: 0)),
        (["a"], nil, .indexOutOfRange(index: -1, count: 1)),
        (["a", "b"], 2, .indexOutOfRange(index: 2, count: 2)),
        (["a", "b"], -1, .indexOutOfRange(index: -1, count: 2)),
    ])
    func init_invalidCurrentIndex_throws(names: [String], currentIndex: Int?, error: NavigationHistoryError) {
        #expect(throws: error) {
            try NavigationHistory(items: names.map(N.entry), currentIndex: currentIndex)
        }
    }

    @Test func init_invalidItem_throws() {
        #expect(throws: NavigationHistoryError.emptyURL) {
            try NavigationHistory(items: [N.entry("a"), NavigationItem(url: "")], currentIndex: 0)
        }
    }

    @Test func init_longTitle_truncates() throws {
        let history = try NavigationHistory(
            items: [NavigationItem(url: "https://a.example/", title: String(repeating: "t", count: 600))],
            currentIndex: 0
        )
        #expect(history.items[0].title.count == NavigationLimits.maximumTitleLength)
    }

    @Test func reading_middleEntry_splitsBackAndForward() throws {
        let history = try N.history("a b c* d e")
        #expect(history.currentItem == N.entry("c"))
        #expect(history.backItems == [N.entry("a"), N.entry("b")])
        #expect(history.forwardItems == [N.entry("d"), N.entry("e")])
        #expect(history.canGoBack)
        #expect(history.canGoForward)
    }

    // MARK: - Commit

    @Test(arguments: [
        ("", "x*", NavigationHistoryChange(insertedIndexes: [0], previousCurrentIndex: nil, currentIndex: 0)),
        ("a*", "a x*", NavigationHistoryChange(insertedIndexes: [1], previousCurrentIndex: 0, currentIndex: 1)),
        ("a b*", "a b x*", NavigationHistoryChange(insertedIndexes: [2], previousCurrentIndex: 1, currentIndex: 2)),
        (
            "a b* c d", "a b x*",
            NavigationHistoryChange(removedIndexes: [2, 3], insertedIndexes: [2], previousCurrentIndex: 1, currentIndex: 2)
        ),
        (
            "a* b c", "a x*",
            NavigationHistoryChange(removedIndexes: [1, 2], insertedIndexes: [1], previousCurrentIndex: 0, currentIndex: 1)
        ),
    ])
    func commit_dropsForwardEntries_appendsCurrent(before: String, after: String, change: NavigationHistoryChange) throws {
        var history = try N.history(before)
        #expect(try history.commit(N.entry("x")) == change)
        #expect(N.text(history) == after)
    }

    @Test func commit_invalidItem_throwsAndLeavesHistory() throws {
        var history = try N.history("a b* c")
        #expect(throws: NavigationHistoryError.invalidHTTPStatus(-1)) {
            try history.commit(NavigationItem(url: "https://x.example/", httpStatus: -1))
        }
        #expect(N.text(history) == "a b* c")
    }

    @Test func commit_longTitle_storesValidatedItem() throws {
        var history = NavigationHistory()
        try history.commit(NavigationItem(url: "https://a.example/", title: String(repeating: "t", count: 513)))
        #expect(history.currentItem?.title == String(repeating: "t", count: 512))
    }

    // MARK: - Back, forward, go

    @Test func goBack_middle_movesIndexOnly() throws {
        var history = try N.history("a b* c")
        #expect(try history.goBack() == NavigationHistoryChange(previousCurrentIndex: 1, currentIndex: 0))
        #expect(N.text(history) == "a* b c")
    }

    @Test func goForward_middle_movesIndexOnly() throws {
        var history = try N.history("a b* c")
        #expect(try history.goForward() == NavigationHistoryChange(previousCurrentIndex: 1, currentIndex: 2))
        #expect(N.text(history) == "a b c*")
    }

    @Test(arguments: ["", "a*", "a* b"])
    func goBack_atFirstOrEmpty_throwsCannotGoBack(before: String) throws {
        var history = try N.history(before)
        #expect(throws: NavigationHistoryError.cannotGoBack) { try history.goBack() }
        #expect(N.text(history) == before)
    }

    @Test(arguments: ["", "a*", "a b*"])
    func goForward_atLastOrEmpty_throwsCannotGoForward(before: String) throws {
        var history = try N.history(before)
        #expect(throws: NavigationHistoryError.cannotGoForward) { try history.goForward() }
        #expect(N.text(history) == before)
    }

    @Test(arguments: [(0, "a* b c d"), (1, "a b* c d"), (3, "a b c d*")])
    func goTo_validIndex_movesIndexOnly(index: Int, after: String) throws {
        var history = try N.history("a b* c d")
        let change = try history.go(to: index)
        #expect(N.text(history) == after)
        #expect(change == NavigationHistoryChange(previousCurrentIndex: 1, currentIndex: index))
        #expect(change.isEmpty == (index == 1))
    }

    @Test(arguments: [("a b* c", -1), ("a b* c", 3), ("", 0)])
    func goTo_invalidIndex_throwsIndexOutOfRange(before: String, index: Int) throws {
        var history = try N.history(before)
        #expect(throws: NavigationHistoryError.indexOutOfRange(index: index, count: history.count)) {
            try history.go(to: index)
        }
        #expect(N.text(history) == before)
    }

    // MARK: - Replace and update

    @Test func replaceCurrent_middle_keepsIndexAndForwardEntries() throws {
        var history = try N.history("a b* c")
        let change = try history.replaceCurrent(with: N.entry("x"))
        #expect(N.text(history) == "a x* c")
        #expect(change == NavigationHistoryChange(updatedIndexes: [1], previousCurrentIndex: 1, currentIndex: 1))
    }

    @Test func replaceCurrent_sameItem_changesNothing() throws {
        var history = try N.history("a b* c")
        #expect(try history.replaceCurrent(with: N.entry("b")).isEmpty)
    }

    @Test func replaceCurrent_empty_throwsIndexOutOfRange() {
        var history = NavigationHistory()
        #expect(throws: NavigationHistoryError.indexOutOfRange(index: 0, count: 0)) {
            try history.replaceCurrent(with: N.entry("x"))
        }
        #expect(history.isEmpty)
    }

    @Test func updateItem_titleOnly_keepsFavicon() throws {
        var history = try N.history("a b* c")
        try history.updateItem(at: 1, title: nil, faviconURL: .some("https://b.example/icon.png"))
        let change = try history.updateItem(at: 0, title: "A", faviconURL: nil)
        #expect(change == NavigationHistoryChange(updatedIndexes: [0], previousCurrentIndex: 1, currentIndex: 1))
        #expect(history.items[0].title == "A")
        #expect(history.items[0].faviconURL == nil)
        #expect(history.items[1].faviconURL == "https://b.example/icon.png")
        #expect(history.items[1].title == "b")
    }

    @Test func updateItem_faviconSomeNil_clearsIt() throws {
        var history = try N.history("a*")
        try history.updateItem(at: 0, title: nil, faviconURL: .some("https://a.example/icon.png"))
        try history.updateItem(at: 0, title: nil, faviconURL: .some(nil))
        #expect(history.items[0].faviconURL == nil)
    }

    @Test func updateItem_nothingNew_changesNothing() throws {
        var history = try N.history("a b*")
        #expect(try history.updateItem(at: 0, title: nil, faviconURL: nil).isEmpty)
        #expect(try history.updateItem(at: 0, title: "a", faviconURL: .some(nil)).isEmpty)
    }

    @Test func updateItem_longTitle_truncates() throws {
        var history = try N.history("a*")
        try history.updateItem(at: 0, title: String(repeating: "t", count: 700), faviconURL: nil)
        #expect(history.items[0].title == String(repeating: "t", count: 512))
    }

    @Test func updateItem_invalidIndexOrFavicon_throwsAndLeavesHistory() throws {
        var history = try N.history("a b*")
        #expect(throws: NavigationHistoryError.indexOutOfRange(index: 2, count: 2)) {
            try history.updateItem(at: 2, title: "x", faviconURL: nil)
        }
        let long = String(repeating: "i", count: NavigationLimits.maximumURLLength + 1)
        #expect(throws: NavigationHistoryError.urlTooLong(field: "faviconURL", length: long.count)) {
            try history.updateItem(at: 0, title: "x", faviconURL: .some(long))
        }
        let unchanged = try N.history("a b*")
        #expect(history == unchanged)
    }

    // MARK: - Trim

    static let trimCases: [TrimCase] = [
        TrimCase(count: 100, current: 0, maximum: 75, kept: 0...74, newCurrent: 0),
        TrimCase(count: 100, current: 50, maximum: 75, kept: 13...87, newCurrent: 37),
        TrimCase(count: 100, current: 99, maximum: 75, kept: 25...99, newCurrent: 74),
        TrimCase(count: 100, current: 10, maximum: 75, kept: 0...74, newCurrent: 10),
        TrimCase(count: 100, current: 80, maximum: 75, kept: 25...99, newCurrent: 55),
        TrimCase(count: 100, current: 49, maximum: 75, kept: 12...86, newCurrent: 37),
        // Ties: the older entry goes first.
        TrimCase(count: 5, current: 2, maximum: 4, kept: 1...4, newCurrent: 1),
        TrimCase(count: 4, current: 2, maximum: 2, kept: 2...3, newCurrent: 0),
        TrimCase(count: 10, current: 5, maximum: 1, kept: 5...5, newCurrent: 0),
        TrimCase(count: 10, current: 5, maximum: 10, kept: 0...9, newCurrent: 5),
        TrimCase(count: 3, current: 1, maximum: 75, kept: 0...2, newCurrent: 1),
    ]

    @Test(arguments: trimCases)
    func trim_farthestEntries_removedAroundCurrent(_ testCase: TrimCase) throws {
        let items = (0..<testCase.count).map { N.entry("e\($0)") }
        var history = try NavigationHistory(items: items, currentIndex: testCase.current)
        let change = try history.trim(toAtMost: testCase.maximum)
        #expect(history.items == Array(items[testCase.kept]))
        #expect(history.currentIndex == testCase.newCurrent)
        #expect(history.currentItem == items[testCase.current])
        #expect(change.removedIndexes == items.indices.filter { !testCase.kept.contains($0) })
        #expect(change.insertedIndexes.isEmpty)
        #expect(change.updatedIndexes.isEmpty)
        #expect(change.previousCurrentIndex == testCase.current)
        #expect(change.currentIndex == testCase.newCurrent)
    }

    @Test func trim_notation_removesFarthest() throws {
        var history = try N.history("a b c* d e")
        #expect(try history.trim(toAtMost: 3).removedIndexes == [0, 4])
        #expect(N.text(history) == "b c* d")
    }

    @Test func trim_empty_changesNothing() throws {
        var history = NavigationHistory()
        #expect(try history.trim(toAtMost: 1).isEmpty)
        #expect(history.isEmpty)
    }

    @Test(arguments: [0, -1])
    func trim_maximumBelowOne_throwsInvalidMaximumEntries(maximum: Int) throws {
        var history = try N.history("a b*")
        #expect(throws: NavigationHistoryError.invalidMaximumEntries(maximum)) {
            try history.trim(toAtMost: maximum)
        }
        #expect(N.text(history) == "a b*")
    }

    // MARK: - Remove all

    @Test(arguments: [
        // The current entry survives: it stays current.
        ("a b* c d", ["a", "c"], "b* d", [0, 2]),
        // The current entry goes: the nearest survivor, the one before on a tie.
        ("a b* c d", ["b", "c"], "a* d", [1, 2]),
        ("a b c* d", ["b", "c"], "a d*", [1, 2]),
        ("a b* c", ["b"], "a* c", [1]),
        ("a* b c", ["a"], "b* c", [0]),
        ("a b c*", ["c", "b"], "a*", [1, 2]),
        // Everything goes.
        ("a b* c", ["a", "b", "c"], "", [0, 1, 2]),
        // Nothing matches.
        ("a b* c", ["x"], "a b* c", []),
        ("", ["a"], "", []),
    ])
    func removeAll_matchingEntries_keepsValidCurrentIndex(
        before: String, removing: [String], after: String, removed: [Int]
    ) throws {
        var history = try N.history(before)
        let previous = history.currentIndex
        let change = history.removeAll { removing.contains($0.title) }
        #expect(N.text(history) == after)
        #expect(change == NavigationHistoryChange(
            removedIndexes: removed, previousCurrentIndex: previous, currentIndex: history.currentIndex
        ))
        #expect((history.currentIndex == nil) == history.isEmpty)
    }

    // MARK: - Change

    @Test func change_newIndexForOldIndex_shiftsPastRemovedIndexes() {
        let change = NavigationHistoryChange(removedIndexes: [1, 3])
        #expect((0...5).map { change.newIndex(forOldIndex: $0) } == [0, nil, 1, nil, 2, 3])
    }

    @Test func change_default_isEmpty() {
        #expect(NavigationHistoryChange().isEmpty)
        #expect(NavigationHistoryChange(previousCurrentIndex: 2, currentIndex: 2).isEmpty)
        #expect(!NavigationHistoryChange(previousCurrentIndex: nil, currentIndex: 0).isEmpty)
        #expect(!NavigationHistoryChange(updatedIndexes: [0], previousCurrentIndex: 0, currentIndex: 0).isEmpty)
    }

    // MARK: - Codable

    @Test(arguments: ["", "a*", "a b* c"])
    func codable_history_roundTrips(text: String) throws {
        let history = try N.history(text)
        let data = try JSONEncoder().encode(history)
        #expect(try JSONDecoder().decode(NavigationHistory.self, from: data) == history)
    }

    @Test(arguments: [
        #"{"items":[],"currentIndex":0}"#,
        #"{"items":[{"url":"https://a.example/","title":"a","referrerPolicy":"default","transition":"link","timestamp":0,"isPost":false,"userAgentType":"automatic"}]}"#,
        #"{"items":[{"url":"https://a.example/","title":"a","referrerPolicy":"default","transition":"link","timestamp":0,"isPost":false,"userAgentType":"automatic"}],"currentIndex":1}"#,
        #"{"items":[{"url":"","title":"a","referrerPolicy":"default","transition":"link","timestamp":0,"isPost":false,"userAgentType":"automatic"}],"currentIndex":0}"#,
    ])
    func codable_invalidHistory_throwsDataCorrupted(json: String) {
        #expect {
            try JSONDecoder().decode(NavigationHistory.self, from: Data(json.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted = error else { return false }
            return true
        }
    }

    @Test func codable_validJSON_decodes() throws {
        let json = #"{"items":[{"url":"https://a.example/","title":"a","referrerPolicy":"default","transition":"link","timestamp":0,"isPost":false,"userAgentType":"automatic"}],"currentIndex":0}"#
        let history = try JSONDecoder().decode(NavigationHistory.self, from: Data(json.utf8))
        #expect(history.currentItem?.url == "https://a.example/")
    }

    // MARK: - Random sequences

    @Test(arguments: UInt64(1)...UInt64(24))
    func randomMutations_changeDescription_reproducesNewItems(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var history = NavigationHistory()
        for step in 0..<300 {
            let before = history
            var expectedCurrent: Int?? = nil  // .some(x) when the reference model predicts the new current index
            var expectedItems: [NavigationItem]? = nil
            let change: NavigationHistoryChange?
            do {
                switch Int.random(in: 0..<9, using: &generator) {
                case 0, 1:
                    change = try history.commit(Self.randomItem(using: &generator))
                case 2:
                    change = try history.goBack()
                case 3:
                    change = try history.goForward()
                case 4:
                    change = try history.go(to: Int.random(in: -1...(history.count), using: &generator))
                case 5:
                    change = try history.replaceCurrent(with: Self.randomItem(using: &generator))
                case 6:
                    let title = Bool.random(using: &generator) ? nil : Self.randomName(using: &generator)
                    let favicon: String?? = switch Int.random(in: 0..<3, using: &generator) {
                    case 0: String??.none
                    case 1: String??.some(nil)
                    default: String??.some("https://\(Self.randomName(using: &generator)).example/icon")
                    }
                    change = try history.updateItem(
                        at: Int.random(in: -1...(history.count), using: &generator), title: title, faviconURL: favicon
                    )
                case 7:
                    let maximum = Int.random(in: 0...6, using: &generator)
                    if maximum >= 1, let current = history.currentIndex {
                        let (kept, newCurrent) = Self.referenceTrim(count: history.count, current: current, maximum: maximum)
                        expectedItems = Array(history.items[kept])
                        expectedCurrent = .some(newCurrent)
                    }
                    change = try history.trim(toAtMost: maximum)
                default:
                    let doomed = Set((0..<Int.random(in: 1...3, using: &generator)).map { _ in
                        Self.randomName(using: &generator)
                    })
                    let removedIndexes = history.items.indices.filter { doomed.contains(history.items[$0].title) }
                    expectedItems = history.items.filter { !doomed.contains($0.title) }
                    expectedCurrent = .some(Self.referenceCurrentAfterRemoving(removedIndexes, from: history))
                    change = history.removeAll { doomed.contains($0.title) }
                }
            } catch {
                change = nil
            }

            let context = Comment(rawValue: "seed \(seed), step \(step): \(N.text(before)) -> \(N.text(history))")
            #expect((history.currentIndex == nil) == history.isEmpty, context)
            if let current = history.currentIndex {
                #expect(history.items.indices.contains(current), context)
            }
            guard let change else {
                #expect(history == before, "a refused mutation changed the history; \(context)")
                continue
            }
            if let expectedItems { #expect(history.items == expectedItems, context) }
            if let expectedCurrent { #expect(history.currentIndex == expectedCurrent, context) }
            #expect(change.previousCurrentIndex == before.currentIndex, context)
            #expect(change.currentIndex == history.currentIndex, context)
            #expect(change.isEmpty == (history == before), context)
            #expect(Self.applyAsRows(change, from: before.items, to: history.items) == history.items, context)
            #expect(Self.isExact(change, from: before.items, to: history.items), context)
        }
    }

    // MARK: - Helpers

    /// Applies a change as a storage writer would, to rows keyed by index; `nil` if a step is impossible.
    ///
    /// Follows ``NavigationHistoryChange``'s documented steps: delete, renumber ascending
    /// (refusing a collision, as `UNIQUE (tab_id, entry_index)` would), insert, update.
    static func applyAsRows(
        _ change: NavigationHistoryChange, from old: [NavigationItem], to new: [NavigationItem]
    ) -> [NavigationItem]? {
        var rows = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($0.offset, $0.element) })
        for index in change.removedIndexes {
            guard rows.removeValue(forKey: index) != nil else { return nil }
        }
        for oldIndex in rows.keys.sorted() {
            guard let newIndex = change.newIndex(forOldIndex: oldIndex) else { return nil }
            guard newIndex == oldIndex || rows[newIndex] == nil else { return nil }
            let row = rows.removeValue(forKey: oldIndex)
            rows[newIndex] = row
        }
        for index in change.insertedIndexes {
            guard new.indices.contains(index), rows[index] == nil else { return nil }
            rows[index] = new[index]
        }
        for index in change.updatedIndexes {
            guard new.indices.contains(index), rows[index] != nil else { return nil }
            rows[index] = new[index]
        }
        guard rows.keys.sorted() == Array(new.indices) else { return nil }
        return new.indices.map { rows[$0]! }
    }

    /// Whether the change's lists are sorted, in range, minimal, and inserted entries follow survivors.
    static func isExact(_ change: NavigationHistoryChange, from old: [NavigationItem], to new: [NavigationItem]) -> Bool {
        func isStrictlyAscending(_ indexes: [Int]) -> Bool { zip(indexes, indexes.dropFirst()).allSatisfy { $0 < $1 } }
        let survivors = old.count - change.removedIndexes.count
        return isStrictlyAscending(change.removedIndexes)
            && isStrictlyAscending(change.insertedIndexes)
            && isStrictlyAscending(change.updatedIndexes)
            && change.removedIndexes.allSatisfy(old.indices.contains)
            && change.insertedIndexes.allSatisfy { $0 >= survivors && $0 < new.count }
            && change.updatedIndexes.allSatisfy { $0 < survivors }
            // An entry is reported updated exactly when it differs from the old entry it came from.
            && old.indices.allSatisfy { oldIndex in
                guard let newIndex = change.newIndex(forOldIndex: oldIndex) else { return true }
                return change.updatedIndexes.contains(newIndex) == (old[oldIndex] != new[newIndex])
            }
    }

    /// Trims by removing the farthest entry one at a time, the leftmost on a tie.
    static func referenceTrim(count: Int, current: Int, maximum: Int) -> (kept: ClosedRange<Int>, current: Int) {
        var indexes = Array(0..<count)
        while indexes.count > maximum {
            let farthest = indexes.max { abs($0 - current) < abs($1 - current) || (abs($0 - current) == abs($1 - current) && $0 > $1) }!
            indexes.removeAll { $0 == farthest }
        }
        return (indexes.first!...indexes.last!, indexes.firstIndex(of: current)!)
    }

    /// The current index after removing `removed`: the old current, or the nearest survivor, before on a tie.
    static func referenceCurrentAfterRemoving(_ removed: [Int], from history: NavigationHistory) -> Int? {
        guard let current = history.currentIndex else { return nil }
        let survivors = history.items.indices.filter { !removed.contains($0) }
        guard let chosen = survivors.min(by: { (abs($0 - current), $0) < (abs($1 - current), $1) }) else { return nil }
        return survivors.firstIndex(of: chosen)
    }

    static func randomName(using generator: inout SplitMix64) -> String {
        ["a", "b", "c", "d", "e", "f"].randomElement(using: &generator)!
    }

    /// A random item from a small set, so equal items occur; one in ten is invalid.
    static func randomItem(using generator: inout SplitMix64) -> NavigationItem {
        var item = N.entry(randomName(using: &generator))
        switch Int.random(in: 0..<10, using: &generator) {
        case 0: item.url = ""
        case 1: item.httpStatus = 200
        case 2: item.isPost = true
        default: break
        }
        return item
    }
}
