import Foundation
import SessionConsumers
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionMediators

/// The strip a mediator makes in proportion to a change must be the strip it
/// would make from scratch, and its diff must turn the old strip into it.
@Suite struct TabStripAdvanceTests {
    /// Random runs of one to three mutations (and page changes) between two snapshots.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func advancing_givesTheStripFromScratch_andADiffThatApplies(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let browser = BrowserID()
        var list = WebStateList()
        var pages: [WebStateID: PageSummary] = [:]
        var old = WebStateListSnapshot(browser: browser, list: list, pages: pages)
        var shown = TabStripSnapshot(old)
        for step in 0..<300 {
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let operation = RandomWebStateListOperation.random(for: list, crowded: list.count > 30, using: &rng)
                try? operation(&list)
            }
            // Some tabs show a new page, or none.
            for _ in 0..<Int.random(in: 0...2, using: &rng) where !list.webStates.isEmpty {
                let id = list.webStates[Int.random(in: 0..<list.count, using: &rng)].id
                pages[id] = Int.random(in: 0..<4, using: &rng) == 0
                    ? nil : PageSummary(title: "page \(step)", url: "https://example.com/\(step)")
            }
            let new = WebStateListSnapshot(browser: browser, list: list, pages: pages)
            let (strip, diff) = try #require(TabStripSnapshot.advancing(from: old, shown: shown, to: new))
            let scratch = TabStripSnapshot(new)
            #expect(strip == scratch, "step \(step)")
            #expect(try diff.apply(to: shown.items) == scratch.items, "step \(step)")
            #expect(diff.isEmpty == (shown == scratch), "step \(step)")
            old = new
            shown = strip
        }
    }

    /// Activating one tab of a long strip updates the two tabs it concerns, and nothing else.
    @Test func advancing_anActivation_updatesTwoItems() throws {
        let browser = BrowserID()
        var list = WebStateList()
        for _ in 0..<1_000 { _ = try list.insert(WebState(), params: .atIndex(list.count)) }
        try list.activate(at: 10)
        let old = WebStateListSnapshot(browser: browser, list: list)
        try list.activate(at: 900)
        let new = WebStateListSnapshot(browser: browser, list: list)
        let (_, diff) = try #require(TabStripSnapshot.advancing(from: old, shown: TabStripSnapshot(old), to: new))
        #expect(diff.summary == "-0 +0 >0 ~2")
        #expect(diff.updated.map(\.index) == [10, 900])
    }
}
