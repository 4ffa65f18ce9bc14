import Foundation
import SessionConsumers
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionMediators

/// A minimal identified item: a letter and a version.
private struct Item: Identifiable, Hashable, Sendable, CustomStringConvertible {
    var id: Character
    var version = 0
    var description: String { version == 0 ? "\(id)" : "\(id)\(version)" }
}

private func items(_ text: String) -> [Item] {
    text.split(separator: " ").map { token in
        Item(id: token.first!, version: Int(token.dropFirst()) ?? 0)
    }
}

@Suite struct ItemDiffTests {
    /// Rows: previous, new, expected summary ("-removed +inserted >moved ~updated").
    static let rows: [(String, String, String)] = [
        ("a b c", "a b c", "-0 +0 >0 ~0"),
        ("a b c", "a c", "-1 +0 >0 ~0"),
        ("a b c", "a x b c", "-0 +1 >0 ~0"),
        ("a b c d", "b c d a", "-0 +0 >1 ~0"),  // one tab moved to the end is one move
        ("a b c d", "d a b c", "-0 +0 >1 ~0"),
        ("a b c d", "a c b d", "-0 +0 >1 ~0"),
        ("a b c d", "d c b a", "-0 +0 >3 ~0"),
        ("a b c", "a b1 c", "-0 +0 >0 ~1"),
        ("a b c d", "d a c x", "-1 +1 >1 ~0"),
        ("", "a b", "-0 +2 >0 ~0"),
        ("a b", "", "-2 +0 >0 ~0"),
    ]

    @Test(arguments: rows)
    func between_row_hasTheSummary_andApplies(previous: String, new: String, summary: String) throws {
        let diff = ItemDiff.between(items(previous), items(new))
        #expect(diff.summary == summary)
        #expect(try diff.apply(to: items(previous)) == items(new))
    }

    @Test func between_movedToEnd_isOneMoveWithSequentialIndexes() {
        let diff = ItemDiff.between(items("a b c d"), items("b c d a"))
        #expect(diff.moved == [.init(id: "a", from: 0, to: 3)])
    }

    @Test func between_documentedExample() {
        let diff = ItemDiff.between(items("a b c d"), items("d a c x"))
        #expect(diff.removed == [.init(index: 1, id: "b")])
        #expect(diff.moved == [.init(id: "d", from: 2, to: 0)])
        #expect(diff.inserted == [.init(index: 3, item: Item(id: "x"))])
        #expect(diff.updated.isEmpty)
    }

    @Test func apply_mismatchedDiff_throws() {
        let diff = ItemDiff.between(items("a b c"), items("a c"))
        #expect(throws: ItemDiffError.removal(index: 1)) { try diff.apply(to: items("a x c")) }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func between_randomLists_applyToTheNewList(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for _ in 0..<500 {
            let old = alphabet.shuffled(using: &rng).prefix(Int.random(in: 0...20, using: &rng))
                .map { Item(id: $0, version: Int.random(in: 0...1, using: &rng)) }
            let new = alphabet.shuffled(using: &rng).prefix(Int.random(in: 0...20, using: &rng))
                .map { Item(id: $0, version: Int.random(in: 0...1, using: &rng)) }
            // Keep many items in common, in a similar order, as real strips do.
            var similar = old.filter { _ in Int.random(in: 0..<5, using: &rng) > 0 }
            for item in new.prefix(3) where !similar.contains(where: { $0.id == item.id }) {
                similar.insert(item, at: Int.random(in: 0...similar.count, using: &rng))
            }
            if similar.count > 1, Bool.random(using: &rng) {
                let moved = similar.remove(at: Int.random(in: 0..<similar.count, using: &rng))
                similar.insert(moved, at: Int.random(in: 0...similar.count, using: &rng))
            }
            for target in [new, similar] {
                let diff = ItemDiff.between(old, target)
                #expect(try diff.apply(to: old) == target, "\(old) -> \(target)")
                #expect(diff.removed.map(\.index) == diff.removed.map(\.index).sorted(by: >))
                #expect(diff.inserted.map(\.index) == diff.inserted.map(\.index).sorted())
            }
        }
    }

    @Test func longestIncreasingSubsequence_examples() {
        #expect(longestIncreasingSubsequence([]) == [])
        #expect(longestIncreasingSubsequence([3, 0, 1, 2]) == [0, 1, 2])
        #expect(longestIncreasingSubsequence([2, 1, 0]).count == 1)
        #expect(longestIncreasingSubsequence([0, 4, 1, 2, 5, 3]) == [0, 1, 2, 3])
    }
}
