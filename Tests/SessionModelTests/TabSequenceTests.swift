import Foundation
import Testing

@testable import SessionModel

/// The tree behind ``WebStateList`` against a plain array doing the same edits: positions,
/// ranks, iteration, and the opener and group lookups must agree after every edit.
@Suite struct TabSequenceTests {
    private struct Mirror {
        var tabs: [WebState] = []
        var groups: [TabGroupID?] = []
    }

    @Test(arguments: [1, 2, 3, 4])
    func randomEdits_matchAnArray(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let groupPool = (0..<4).map { _ in TabGroupID() }
        func randomGroup() -> TabGroupID? {
            Bool.random(using: &random) ? nil : groupPool.randomElement(using: &random)
        }
        let initial = (0..<Int.random(in: 0..<40, using: &random)).map { _ in WebState() }
        let initialGroups = initial.map { _ in randomGroup() }
        var sequence = TabSequence(webStates: initial, groupIDs: initialGroups)
        var mirror = Mirror(tabs: initial, groups: initialGroups)

        for _ in 0..<600 {
            switch Int.random(in: 0..<5, using: &random) {
            case 0, 1:
                let position = Int.random(in: 0...mirror.tabs.count, using: &random)
                let opener = mirror.tabs.randomElement(using: &random).map { WebStateOpener(openerID: $0.id) }
                let tab = WebState(opener: Bool.random(using: &random) ? opener : nil)
                let group = randomGroup()
                sequence.insert(tab, group: group, at: position)
                mirror.tabs.insert(tab, at: position)
                mirror.groups.insert(group, at: position)
            case 2 where !mirror.tabs.isEmpty:
                let position = Int.random(in: 0..<mirror.tabs.count, using: &random)
                let removed = sequence.remove(at: position)
                #expect(removed.webState == mirror.tabs.remove(at: position))
                #expect(removed.group == mirror.groups.remove(at: position))
            case 3 where !mirror.tabs.isEmpty:
                let from = Int.random(in: 0..<mirror.tabs.count, using: &random)
                let to = Int.random(in: 0..<mirror.tabs.count, using: &random)
                let group = randomGroup()
                sequence.move(from: from, to: to, group: group)
                mirror.tabs.insert(mirror.tabs.remove(at: from), at: to)
                mirror.groups.remove(at: from)
                mirror.groups.insert(group, at: to)
            case 4 where !mirror.tabs.isEmpty:
                let position = Int.random(in: 0..<mirror.tabs.count, using: &random)
                let opener = mirror.tabs.randomElement(using: &random).map { WebStateOpener(openerID: $0.id) }
                sequence.update(at: position) { $0.opener = opener }
                mirror.tabs[position].opener = opener
            default:
                break
            }
            try check(sequence, against: mirror)
        }
    }

    @Test func column_readsLikeAnArray() {
        let tabs = (0..<100).map { _ in WebState() }
        let column = TabListColumn(tabs)
        #expect(Array(column) == tabs)
        #expect(column.map(\.id) == tabs.map(\.id))
        #expect(column[57] == tabs[57])
        #expect(column.count == 100)
        #expect(column == TabListColumn(tabs))
        #expect(column != TabListColumn(tabs.reversed()))
        #expect(([] as TabListColumn<WebState>).isEmpty)
        #expect(Array(column.reversedElements) == tabs.reversed())
        for start in [0, 1, 57, 99, 100] {
            var iterator = column.makeIterator(from: start)
            var read: [WebState] = []
            while let tab = iterator.next() { read.append(tab) }
            #expect(read == Array(tabs[start...]))
        }
    }

    private func check(_ sequence: TabSequence, against mirror: Mirror) throws {
        #expect(sequence.count == mirror.tabs.count)
        #expect(Array(sequence.webStateColumn) == mirror.tabs)
        #expect(Array(sequence.groupIDColumn) == mirror.groups)
        #expect(Array(sequence.webStateColumn.reversedElements) == mirror.tabs.reversed())
        for (position, tab) in mirror.tabs.enumerated() {
            #expect(sequence[position] == tab)
            #expect(sequence.groupID(at: position) == mirror.groups[position])
            #expect(sequence.index(of: tab.id) == position)
            let children = mirror.tabs.indices.filter { mirror.tabs[$0].opener?.openerID == tab.id }
            #expect(sequence.childIndexes(ofOpener: tab.id).sorted() == children)
        }
        for group in Set(mirror.groups.compactMap { $0 }) {
            let member = try #require(sequence.anyIndex(inGroup: group))
            #expect(mirror.groups[member] == group)
        }
        let withOpeners = Set(mirror.tabs.filter { $0.opener != nil }.map(\.id))
        #expect(Set(sequence.tabsWithOpeners) == withOpeners)
    }
}
