/// A set of tab indexes removed together, and how the other indexes shift.
///
/// The indexes are kept sorted and unique. A set removal decides the next
/// active tab once, before any tab goes (<doc:TabListRules>, Removal).
///
///     RemovingIndexes([1, 3])  indexAfterRemoval(0) -> 0, (1) -> nil, (2) -> 1, (4) -> 2
///
/// Iterate over ``indexes`` to visit the removed indexes in ascending order.
// Not a `Sequence`: every public `Sequence` of the `SessionStore` modules gets,
// in their symbol graph and so in their documentation, the `Sequence.flatMap`
// that GRDB's `Cursor.swift` declares, returning GRDB's `FlattenCursor` (the storage
// layer imports GRDB internally, but the graph sees every module it loads).
public struct RemovingIndexes: Hashable, Sendable, ExpressibleByArrayLiteral {
    /// The removed indexes, ascending, without duplicates.
    public let indexes: [Int]

    /// Creates a set from indexes in any order; duplicates count once.
    public init(_ indexes: some Sequence<Int>) {
        self.indexes = Array(Set(indexes)).sorted()
    }

    /// Creates a set holding every index of `range`.
    public init(range: Range<Int>) {
        self.indexes = Array(range)
    }

    /// Creates a set from an array literal: `[1, 3]`.
    public init(arrayLiteral elements: Int...) {
        self.init(elements)
    }

    /// The number of removed indexes.
    public var count: Int { indexes.count }

    /// Whether no index is removed.
    public var isEmpty: Bool { indexes.isEmpty }

    /// The smallest removed index.
    public var first: Int? { indexes.first }

    /// The largest removed index.
    public var last: Int? { indexes.last }

    /// The smallest range that holds every removed index; `nil` when empty.
    public var span: Range<Int>? {
        guard let first = indexes.first, let last = indexes.last else { return nil }
        return first..<(last + 1)
    }

    /// Whether `index` is removed.
    public func contains(_ index: Int) -> Bool {
        binarySearch(index).found
    }

    /// Returns where the tab at `index` lands once the set is removed; `nil` if it is removed itself.
    ///
    ///     RemovingIndexes([1, 3]).indexAfterRemoval(2)  ->  1
    public func indexAfterRemoval(_ index: Int) -> Int? {
        let (position, found) = binarySearch(index)
        return found ? nil : index - position
    }

    /// Returns the number of removed indexes smaller than `index`, and whether `index` is removed.
    private func binarySearch(_ index: Int) -> (position: Int, found: Bool) {
        var low = 0
        var high = indexes.count
        while low < high {
            let middle = (low + high) / 2
            if indexes[middle] < index {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return (low, low < indexes.count && indexes[low] == index)
    }
}
