/// The tab order a subject keeps in memory to choose tabs by index, with the change of
/// its last mutation held back until ``settle()``.
///
/// The harness calls `settle()` after each timed call, outside the timed region: shifting
/// this array is the harness's bookkeeping, not the subject's work, and at 100,000 tabs it
/// would cost more than some of the mutations it measures.
struct TabOrder<Element> {
    /// A change to the order, applied by ``settle()``.
    enum Change {
        case insert(Element, at: Int)
        /// The element at `from` leaves, and `element` (the same tab, perhaps with a new key) goes to `to`.
        case move(from: Int, to: Int, element: Element)
        case remove(at: Int)
    }

    private var elements: [Element]
    private var pending: Change?

    init(_ elements: [Element]) { self.elements = elements }

    /// The number of tabs, the last change settled.
    var count: Int { elements.count }

    subscript(index: Int) -> Element { elements[index] }

    /// Holds `change` back until ``settle()`` (one at a time: the harness settles after each call).
    mutating func record(_ change: Change) {
        precondition(pending == nil, "the previous change was not settled")
        pending = change
    }

    /// Applies the recorded change, if any.
    mutating func settle() {
        guard let change = pending else { return }
        pending = nil
        switch change {
        case .insert(let element, let index): elements.insert(element, at: index)
        case .move(let from, let to, let element):
            elements.remove(at: from)
            elements.insert(element, at: to)
        case .remove(let index): elements.remove(at: index)
        }
    }
}
