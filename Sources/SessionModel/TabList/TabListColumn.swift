/// One column of a ``WebStateList`` in tab order: its tabs (``WebStateList/webStates``) or
/// their groups (``WebStateList/groupIDs``).
///
/// A read-only, random-access collection indexed from 0. The list keeps its tabs in a
/// balanced tree, so that inserting, removing or moving a tab never shifts the others:
/// reading one element by position costs O(log n), and iterating the whole column
/// (`for`, `map`, `Array(_:)`) costs O(n). A column is a snapshot: it does not change
/// when the list it came from does.
///
/// ## Topics
/// ### Reading
/// - ``subscript(_:)``
/// - ``startIndex``
/// - ``endIndex``
/// - ``makeIterator()``
/// - ``map(_:)``
/// ### Creating
/// - ``init(_:)``
/// - ``init(arrayLiteral:)``
/// - ``Iterator``
public struct TabListColumn<Element: Hashable & Sendable>: RandomAccessCollection, Hashable, Sendable,
    ExpressibleByArrayLiteral
{
    /// The order of the slots.
    let links: TabTreeLinks
    /// The element of each slot.
    let values: [Element]

    init(links: TabTreeLinks, values: [Element]) {
        self.links = links
        self.values = values
    }

    /// Creates a column from elements in order, as a list's column of them would be.
    public init(_ elements: some Collection<Element>) {
        var links = TabTreeLinks()
        links.rebuild(count: elements.count)
        self.init(links: links, values: Array(elements))
    }

    /// Creates a column from the elements of a literal.
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }

    /// The position of the first element: 0.
    public var startIndex: Int { 0 }

    /// The position after the last element: the number of elements.
    public var endIndex: Int { links.count }

    /// The element at `position`, in O(log n).
    public subscript(position: Int) -> Element {
        values[Int(links.slot(at: position))]
    }

    /// Returns an iterator over the elements in order, O(1) per step on average.
    public func makeIterator() -> Iterator {
        Iterator(column: self, slot: links.firstSlot)
    }

    /// Returns an iterator over the elements from `position` on: O(log n) to start, then O(1) per
    /// step on average.
    package func makeIterator(from position: Int) -> Iterator {
        Iterator(column: self, slot: position < count ? links.slot(at: position) : -1)
    }

    /// The elements from the last to the first, O(1) per step on average.
    package var reversedElements: UnfoldSequence<Element, Int32> {
        sequence(state: links.lastSlot) { [links, values] slot in
            guard slot >= 0 else { return nil }
            defer { slot = links.slot(before: slot) }
            return values[Int(slot)]
        }
    }

    /// The elements transformed, in order, in O(n).
    public func map<T>(_ transform: (Element) throws -> T) rethrows -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        for element in self { result.append(try transform(element)) }
        return result
    }

    /// Whether two columns have the same elements in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    /// Hashes the elements in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }

    /// Iterates a column's elements in order.
    public struct Iterator: IteratorProtocol {
        let column: TabListColumn
        var slot: Int32

        init(column: TabListColumn, slot: Int32) {
            self.column = column
            self.slot = slot
        }

        /// The next element, or `nil` after the last one.
        public mutating func next() -> Element? {
            guard slot >= 0 else { return nil }
            let element = column.values[Int(slot)]
            slot = column.links.slot(after: slot)
            return element
        }
    }
}

extension TabListColumn: CustomStringConvertible {
    /// The elements, written as an array's.
    public var description: String { Array(self).description }
}
