import SessionModel
import Testing

@Suite struct RemovingIndexesTests {
    @Test func init_unsortedWithDuplicates_sortsAndDeduplicates() {
        let indexes = RemovingIndexes([4, 1, 4, 2])
        #expect(indexes.indexes == [1, 2, 4])
        #expect(indexes.count == 3)
    }

    @Test func init_range_holdsEveryIndex() {
        #expect(RemovingIndexes(range: 2..<5).indexes == [2, 3, 4])
        #expect(RemovingIndexes(range: 3..<3).isEmpty)
    }

    @Test(arguments: [(0, 0 as Int?), (1, nil), (2, 1), (3, nil), (4, 2), (10, 8)])
    func indexAfterRemoval_shiftsByRemovedBefore(_ index: Int, _ expected: Int?) {
        let indexes: RemovingIndexes = [1, 3]
        #expect(indexes.indexAfterRemoval(index) == expected)
    }

    @Test func contains_reportsMembership() {
        let indexes: RemovingIndexes = [0, 5]
        #expect(indexes.contains(0))
        #expect(indexes.contains(5))
        #expect(!indexes.contains(3))
    }

    @Test func span_coversFirstToLast() {
        #expect(RemovingIndexes([2, 7, 4]).span == 2..<8)
        #expect(RemovingIndexes([]).span == nil)
        #expect(RemovingIndexes([2, 7]).first == 2)
        #expect(RemovingIndexes([2, 7]).last == 7)
    }
}
