/// Chooses `tabs.sort_key` values so that one inserted or moved tab writes one row.
///
/// Keys are sparse integers: a tab's key lies strictly between its neighbours'.
/// An inserted or moved tab takes a key in the gap between the kept tabs around
/// it; an appended tab takes the last key plus ``step``. When a gap has no room
/// left, a window of neighbours around it grows (doubling) until its keys'
/// span leaves at least ``minimumSpacing`` per tab, and only that window is
/// spread out evenly again: an order-maintenance scheme, amortised O(log n) rows
/// per insertion instead of renumbering the list.
struct SortKeyAllocator {
    /// The distance between consecutive keys when tabs are appended.
    static let step: Int64 = 1 << 32
    /// The smallest average spacing a re-spread window must leave.
    static let minimumSpacing: Int64 = 1 << 16
    /// Keys stay within ±bound, so differences never overflow.
    static let bound: Int64 = 1 << 61

    /// Assigns keys.
    ///
    /// - Parameters:
    ///   - order: Every tab of the list, in its new order.
    ///   - keys: The current key of every tab that keeps its key unless a
    ///     window must be re-spread (tabs absent from it need a key).
    /// - Returns: The new key of every tab whose key changes (all tabs absent
    ///   from `keys`, plus any kept tab of a re-spread window), in strictly
    ///   increasing order along `order` together with the kept keys.
    static func assign<ID: Hashable>(order: [ID], keys: [ID: Int64]) -> [ID: Int64] {
        var current: [Int64?] = order.map { keys[$0] }
        var changed: [ID: Int64] = [:]
        var index = 0
        while index < order.count {
            guard current[index] == nil else {
                index += 1
                continue
            }
            var end = index
            while end + 1 < order.count, current[end + 1] == nil { end += 1 }
            let assigned = fill(&current, run: index...end)
            for position in assigned { changed[order[position]] = current[position]! }
            index = end + 1
        }
        return changed
    }

    /// Fills the run of missing keys at `run`, re-spreading a window when needed.
    /// Returns the positions whose keys were written.
    private static func fill(_ current: inout [Int64?], run: ClosedRange<Int>) -> [Int] {
        let count = current.count
        let left = run.lowerBound > 0 ? current[run.lowerBound - 1] : nil
        let right = run.upperBound + 1 < count ? current[run.upperBound + 1] : nil
        let length = Int64(run.count)

        // Appending or prepending: step away from the one neighbour, if there is room.
        if right == nil {
            let base = left ?? -step
            if base < bound - step * (length + 1) {
                for (offset, position) in run.enumerated() { current[position] = base + step * Int64(offset + 1) }
                return Array(run)
            }
        } else if left == nil, let right, right > -bound + step * (length + 1) {
            for (offset, position) in run.enumerated() { current[position] = right - step * Int64(run.count - offset) }
            return Array(run)
        }

        // Between two neighbours, or at an edge with no room: find a window with room.
        var low = run.lowerBound
        var high = run.upperBound
        while true {
            let lowKey = low > 0 ? current[low - 1]! : -bound
            var highIndex = high
            while highIndex + 1 < count, current[highIndex + 1] == nil { highIndex += 1 }
            high = highIndex
            let highKey = high + 1 < count ? current[high + 1]! : bound
            let slots = Int64(high - low + 2)
            let spacing = (highKey - lowKey) / slots
            let isWholeList = low == 0 && high == count - 1
            let needed = (low == run.lowerBound && high == run.upperBound) ? 1 : minimumSpacing
            if spacing >= needed || (isWholeList && spacing >= 1) {
                var written: [Int] = []
                for position in low...high {
                    let key = lowKey + spacing * Int64(position - low + 1)
                    if current[position] != key {
                        current[position] = key
                        written.append(position)
                    }
                }
                return written
            }
            precondition(!isWholeList, "SortKeyAllocator: more tabs than keys")
            let width = high - low + 1
            low = max(0, low - width)
            high = min(count - 1, high + width)
        }
    }
}
