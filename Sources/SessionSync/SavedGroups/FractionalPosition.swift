/// Positions of a saved group's tabs that never need renumbering: strings of base-62 digits
/// compared as text, with one always between any two (fractional indexing).
///
/// Two devices that insert between the same neighbours at once may make the same position;
/// tabs then order by position and then by tab id, so every device shows one order.
package enum FractionalPosition {
    /// The digits, in ascending order as text compares them.
    static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    private static let values: [Character: Int] = Dictionary(
        uniqueKeysWithValues: digits.enumerated().map { ($0.element, $0.offset) })

    /// A position after `before` and before `after` (`nil`: the start, or the end).
    ///
    /// - Precondition: both are positions this type made (no trailing `0`), and `before < after`.
    package static func between(_ before: String?, _ after: String?) -> String {
        let low = (before ?? "").map { values[$0] ?? 0 }
        guard let after else { return String(next(after: low).map { digits[$0] }) }
        return String(midpoint(low[...], after.map { values[$0] ?? 0 }[...]).map { digits[$0] })
    }

    /// A position after `low` with nothing above it: its first digit below the top one, plus one
    /// (the digits before it kept), or `low` and one more digit. Appending, what a new tab
    /// does, then adds a digit every 61 positions; the midpoint would add one every 6.
    private static func next(after low: [Int]) -> [Int] {
        guard !low.isEmpty else { return [digits.count / 2] }
        if let index = low.firstIndex(where: { $0 + 1 < digits.count }) {
            return Array(low[..<index]) + [low[index] + 1]
        }
        return low + [1]
    }

    /// Digits strictly between `low` and `high` (`nil`: above every position), ending in no 0.
    private static func midpoint(_ low: ArraySlice<Int>, _ high: ArraySlice<Int>?) -> [Int] {
        if let high {
            // A common prefix is kept as it is.
            var shared = 0
            while shared < high.count, (shared < low.count ? low[low.startIndex + shared] : 0) == high[high.startIndex + shared] {
                shared += 1
            }
            if shared > 0 {
                let prefix = Array(high.prefix(shared))
                let rest = low.count > shared ? low.dropFirst(shared) : []
                return prefix + midpoint(rest, high.dropFirst(shared))
            }
        }
        let lowDigit = low.first ?? 0
        let highDigit = high.map { $0.first ?? 0 } ?? digits.count
        if highDigit - lowDigit > 1 { return [(lowDigit + highDigit) / 2] }
        // Neighbouring digits: the high one alone when more follows it, else go one digit deeper.
        if let high, high.count > 1 { return [highDigit] }
        return [lowDigit] + midpoint(low.dropFirst(), nil)
    }
}
