/// Chooses `tabs.sort_key` values so that one inserted or moved tab writes one row.
///
/// Keys are sparse integers: a tab's key lies strictly between its neighbours'.
/// An inserted or moved tab takes a key in the gap between the kept tabs around
/// it; an appended tab takes the last key plus ``step``. When a gap has no room
/// left, a window of neighbours around it grows (doubling) until its keys'
/// span leaves at least ``minimumSpacing`` per tab, and only that window is
/// spread out evenly again: an order-maintenance scheme, amortised O(log n) rows
/// per insertion instead of renumbering the list. The work is proportional to
/// the tabs that need keys and the windows re-spread, never to the list.
struct SortKeyAllocator {
    /// The distance between consecutive keys when tabs are appended.
    static let step: Int64 = 1 << 32
    /// The smallest average spacing a re-spread window must leave.
    static let minimumSpacing: Int64 = 1 << 16
    /// Keys stay within ±bound, so differences never overflow.
    static let bound: Int64 = 1 << 61

    private let count: Int
    private let existing: (Int) -> Int64?
    private var assigned: [Int: Int64] = [:]
    private var pending: Set<Int>

    /// Assigns keys.
    ///
    /// - Parameters:
    ///   - positions: The positions (in the list's new order) of the tabs that need keys.
    ///   - count: The number of tabs in the list.
    ///   - key: The current key of the tab at a position that keeps its key
    ///     unless a window must be re-spread (called only for other positions).
    /// - Returns: The new key of every position whose key changes (all of
    ///   `positions`, plus any kept tab of a re-spread window), so that keys
    ///   strictly increase along the list.
    static func assign(positions: some Sequence<Int>, count: Int, key: @escaping (Int) -> Int64?) -> [Int: Int64] {
        var allocator = SortKeyAllocator(count: count, existing: key, pending: Set(positions))
        for start in allocator.pending.sorted() where allocator.pending.contains(start) {
            var end = start
            while allocator.pending.contains(end + 1) { end += 1 }
            allocator.fill(run: start...end)
        }
        return allocator.assigned
    }

    /// Convenience for a whole order with the kept tabs' keys (tests, and lists written anew).
    static func assign<ID: Hashable>(order: [ID], keys: [ID: Int64]) -> [ID: Int64] {
        let positions = order.indices.filter { keys[order[$0]] == nil }
        let changed = assign(positions: positions, count: order.count) { keys[order[$0]] }
        return Dictionary(uniqueKeysWithValues: changed.map { (order[$0.key], $0.value) })
    }

    private init(count: Int, existing: @escaping (Int) -> Int64?, pending: Set<Int>) {
        self.count = count
        self.existing = existing
        self.pending = pending
    }

    /// The key at `position` now: assigned in this call, else kept; `nil` if still to assign.
    private func key(_ position: Int) -> Int64? {
        if let key = assigned[position] { return key }
        return pending.contains(position) ? nil : existing(position)
    }

    private mutating func set(_ position: Int, _ key: Int64) {
        assigned[position] = key
        pending.remove(position)
    }

    /// Fills the run of missing keys at `run`, re-spreading a window when needed.
    private mutating func fill(run: ClosedRange<Int>) {
        let left = run.lowerBound > 0 ? key(run.lowerBound - 1) : nil
        let right = run.upperBound + 1 < count ? key(run.upperBound + 1) : nil
        let length = Int64(run.count)

        // Appending or prepending: step away from the one neighbour, if there is room.
        if right == nil, run.upperBound + 1 >= count {
            let base = left ?? -Self.step
            if base < Self.bound - Self.step * (length + 1) {
                for (offset, position) in run.enumerated() { set(position, base + Self.step * Int64(offset + 1)) }
                return
            }
        } else if left == nil, run.lowerBound == 0, let right, right > -Self.bound + Self.step * (length + 1) {
            for (offset, position) in run.enumerated() {
                set(position, right - Self.step * Int64(run.count - offset))
            }
            return
        }

        // Between two neighbours, or at an edge with no room: find a window with room.
        var low = run.lowerBound
        var high = run.upperBound
        while true {
            while low > 0, key(low - 1) == nil { low -= 1 }
            while high + 1 < count, key(high + 1) == nil { high += 1 }
            let lowKey = low > 0 ? key(low - 1)! : -Self.bound
            let highKey = high + 1 < count ? key(high + 1)! : Self.bound
            let slots = Int64(high - low + 2)
            let spacing = (highKey - lowKey) / slots
            let isWholeList = low == 0 && high == count - 1
            let needed = (low == run.lowerBound && high == run.upperBound) ? 1 : Self.minimumSpacing
            if spacing >= needed || (isWholeList && spacing >= 1) {
                for position in low...high {
                    let newKey = lowKey + spacing * Int64(position - low + 1)
                    if key(position) != newKey { set(position, newKey) }
                }
                return
            }
            precondition(!isWholeList, "SortKeyAllocator: more tabs than keys")
            let width = high - low + 1
            low = max(0, low - width)
            high = min(count - 1, high + width)
        }
    }
}
