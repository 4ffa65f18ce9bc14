import Testing
@testable import SessionStorage

@Suite struct SortKeyAllocatorTests {
    /// Applies the allocator's answer and checks keys strictly increase along `order`.
    private func apply(_ order: [Int], _ keys: inout [Int: Int64]) -> Int {
        let changed = SortKeyAllocator.assign(order: order, keys: keys)
        keys.merge(changed) { $1 }
        let sequence = order.map { keys[$0]! }
        #expect(zip(sequence, sequence.dropFirst()).allSatisfy { $0 < $1 })
        return changed.count
    }

    @Test func append_stepsFromTheLastKey() {
        var keys: [Int: Int64] = [0: 0]
        #expect(apply([0, 1, 2], &keys) == 2)
        #expect(keys[1] == SortKeyAllocator.step && keys[2] == 2 * SortKeyAllocator.step)
    }

    @Test func insertBetween_takesTheMidpointRange_andWritesOneKey() {
        var keys: [Int: Int64] = [0: 0, 1: 100]
        #expect(apply([0, 2, 1], &keys) == 1)
        #expect(keys[2] == 50)
    }

    @Test func prepend_stepsBelowTheFirstKey() {
        var keys: [Int: Int64] = [0: 0]
        #expect(apply([1, 0], &keys) == 1)
        #expect(keys[1] == -SortKeyAllocator.step)
    }

    @Test func exhaustedGap_respreadsOnlyANeighbourhood() {
        var keys: [Int: Int64] = [:]
        var order = Array(0..<1_000)
        for id in order { keys[id] = Int64(id) * SortKeyAllocator.step }
        keys[1] = 1
        keys[0] = 0
        order.insert(5_000, at: 1)  // between keys 0 and 1: no room
        let written = apply(order, &keys)
        #expect(written > 1 && written < 20)
    }

    /// Inserting again and again at one spot costs few rows on average.
    @Test func repeatedInsertsAtOneSpot_amortiseToAFewRowsEach() {
        var keys: [Int: Int64] = [:]
        var order = Array(0..<1_000)
        for id in order { keys[id] = Int64(id) * SortKeyAllocator.step }
        var total = 0
        for n in 0..<2_000 {
            order.insert(10_000 + n, at: 500)
            total += apply(order, &keys)
        }
        #expect(Double(total) / 2_000 < 8, "average rows per insert: \(Double(total) / 2_000)")
    }
}
