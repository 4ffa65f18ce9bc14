/// The order of a list's tabs as an implicit treap over storage slots.
///
/// Each tab lives in a slot that does not move while the tab stays in the list;
/// the treap orders the slots and keeps each subtree's size, so that finding
/// the slot at a position (select) and the position of a slot (rank) walk one
/// root-to-leaf path: O(log n) expected. Inserting, removing and moving a slot
/// split and merge along such paths, so no edit shifts the other tabs.
///
/// Priorities come from a seeded generator, which keeps the tree balanced in
/// expectation for any sequence of edits that does not see the priorities.
/// The structure is a plain value: copying it copies its arrays on the first
/// write, as an `Array` would.
struct TabTreeLinks: Sendable {
    /// One slot's links. `-1` stands for no node.
    struct Node: Sendable {
        var left: Int32 = -1
        var right: Int32 = -1
        var parent: Int32 = -1
        var size: Int32 = 1
        var priority: UInt64
    }

    /// The nodes, by slot; a free slot's node is unlinked.
    private(set) var nodes: [Node] = []
    /// The root's slot, or `-1` for an empty tree.
    private(set) var root: Int32 = -1
    /// Slots whose tab left the list, reused first.
    private var freeSlots: [Int32] = []
    private var random = SplitMix64(seed: 0x7AB5_7AB5_7AB5_7AB5)

    /// The number of ordered slots.
    var count: Int { root < 0 ? 0 : Int(nodes[Int(root)].size) }

    /// The number of slots in use or free: the payload arrays are this long.
    var capacity: Int { nodes.count }

    // MARK: - Queries

    /// The slot at `position`.
    ///
    /// - Precondition: `0 <= position < count`.
    func slot(at position: Int) -> Int32 {
        precondition(position >= 0 && position < count, "Index \(position) out of range")
        var node = root
        var remaining = Int32(position)
        return nodes.withUnsafeBufferPointer { nodes in
            while true {
                let left = nodes[Int(node)].left
                let leftSize = left < 0 ? 0 : nodes[Int(left)].size
                if remaining < leftSize {
                    node = left
                } else if remaining == leftSize {
                    return node
                } else {
                    remaining -= leftSize + 1
                    node = nodes[Int(node)].right
                }
            }
        }
    }

    /// The position of `slot`, which must be in the tree.
    func position(of slot: Int32) -> Int {
        nodes.withUnsafeBufferPointer { nodes in
            let left = nodes[Int(slot)].left
            var rank = left < 0 ? 0 : Int(nodes[Int(left)].size)
            var node = slot
            var parent = nodes[Int(slot)].parent
            while parent >= 0 {
                if nodes[Int(parent)].right == node {
                    let parentLeft = nodes[Int(parent)].left
                    rank += (parentLeft < 0 ? 0 : Int(nodes[Int(parentLeft)].size)) + 1
                }
                node = parent
                parent = nodes[Int(node)].parent
            }
            return rank
        }
    }

    /// The first slot in order, or `-1` for an empty tree.
    var firstSlot: Int32 { outermost(forward: false) }

    /// The slot after `slot` in order, or `-1` after the last one.
    func slot(after slot: Int32) -> Int32 {
        neighbor(of: slot, forward: true)
    }

    /// The last slot in order, or `-1` for an empty tree.
    var lastSlot: Int32 { outermost(forward: true) }

    /// The last slot in order (`forward`) or the first one; `-1` for an empty tree.
    private func outermost(forward: Bool) -> Int32 {
        var node = root
        guard node >= 0 else { return -1 }
        while true {
            let next = forward ? nodes[Int(node)].right : nodes[Int(node)].left
            guard next >= 0 else { return node }
            node = next
        }
    }

    /// The slot before `slot` in order, or `-1` before the first one.
    func slot(before slot: Int32) -> Int32 {
        neighbor(of: slot, forward: false)
    }

    /// The in-order neighbour of `slot` on one side: the nearest node of its subtree on that side,
    /// else the first ancestor it is on the other side of.
    @inline(__always)
    private func neighbor(of slot: Int32, forward: Bool) -> Int32 {
        @inline(__always) func child(_ node: Int32, _ right: Bool) -> Int32 {
            right ? nodes[Int(node)].right : nodes[Int(node)].left
        }
        var node = slot
        if child(node, forward) >= 0 {
            node = child(node, forward)
            while child(node, !forward) >= 0 { node = child(node, !forward) }
            return node
        }
        var parent = nodes[Int(node)].parent
        while parent >= 0, child(parent, forward) == node {
            node = parent
            parent = nodes[Int(node)].parent
        }
        return parent
    }

    // MARK: - Edits

    /// Takes a free slot (or a new one) and inserts it at `position`; returns it.
    ///
    /// - Precondition: `0 <= position <= count`.
    mutating func insert(at position: Int) -> Int32 {
        precondition(position >= 0 && position <= count, "Index \(position) out of range")
        let slot: Int32
        let priority = random.next()
        if let free = freeSlots.popLast() {
            slot = free
            nodes[Int(slot)] = Node(priority: priority)
        } else {
            slot = Int32(nodes.count)
            nodes.append(Node(priority: priority))
        }
        link(slot, at: position)
        return slot
    }

    /// Removes the slot at `position` from the order and frees it; returns it.
    @discardableResult
    mutating func remove(at position: Int) -> Int32 {
        let slot = slot(at: position)
        unlink(slot)
        freeSlots.append(slot)
        return slot
    }

    /// Moves the slot at `from` so that it ends at position `to`; returns it.
    @discardableResult
    mutating func move(from: Int, to: Int) -> Int32 {
        let slot = slot(at: from)
        unlink(slot)
        link(slot, at: to)
        return slot
    }

    /// Replaces the whole order with `count` new slots, `0..<count` in order, in O(n).
    mutating func rebuild(count: Int) {
        nodes.removeAll(keepingCapacity: true)
        freeSlots.removeAll()
        root = -1
        nodes.reserveCapacity(count)
        // A Cartesian tree on random priorities built along its right spine: each node popped off the
        // spine is final, so its size is known then.
        var spine: [Int32] = []
        for index in 0..<count {
            let slot = Int32(index)
            nodes.append(Node(priority: random.next()))
            var last: Int32 = -1
            while let top = spine.last, nodes[Int(top)].priority < nodes[Int(slot)].priority {
                spine.removeLast()
                updateSize(top)
                last = top
            }
            nodes[Int(slot)].left = last
            if last >= 0 { nodes[Int(last)].parent = slot }
            if let top = spine.last {
                nodes[Int(top)].right = slot
                nodes[Int(slot)].parent = top
            }
            spine.append(slot)
        }
        while let top = spine.popLast() { updateSize(top) }
        root = count > 0 ? 0 : -1
        while root >= 0, nodes[Int(root)].parent >= 0 { root = nodes[Int(root)].parent }
    }

    // MARK: - Split and merge

    /// Links a detached slot in at `position`.
    private mutating func link(_ slot: Int32, at position: Int) {
        let (left, right) = split(root, Int32(position))
        root = merge(merge(left, slot), right)
        nodes[Int(root)].parent = -1
    }

    /// Takes `slot` out of the order, leaving it detached; its ancestors shrink by one.
    private mutating func unlink(_ slot: Int32) {
        let node = nodes[Int(slot)]
        let joined = merge(node.left, node.right)
        let parent = node.parent
        if joined >= 0 { nodes[Int(joined)].parent = parent }
        if parent < 0 {
            root = joined
        } else {
            if nodes[Int(parent)].left == slot {
                nodes[Int(parent)].left = joined
            } else {
                nodes[Int(parent)].right = joined
            }
            var ancestor = parent
            while ancestor >= 0 {
                nodes[Int(ancestor)].size -= 1
                ancestor = nodes[Int(ancestor)].parent
            }
        }
        nodes[Int(slot)] = Node(priority: node.priority)
    }

    /// Splits the subtree at `node` into its first `count` slots and the rest. The returned roots'
    /// parents are left for the caller to set.
    private mutating func split(_ node: Int32, _ count: Int32) -> (Int32, Int32) {
        guard node >= 0 else { return (-1, -1) }
        let left = nodes[Int(node)].left
        let leftSize = left < 0 ? 0 : nodes[Int(left)].size
        if count <= leftSize {
            let (first, rest) = split(left, count)
            nodes[Int(node)].left = rest
            if rest >= 0 { nodes[Int(rest)].parent = node }
            updateSize(node)
            if first >= 0 { nodes[Int(first)].parent = -1 }
            return (first, node)
        } else {
            let (first, rest) = split(nodes[Int(node)].right, count - leftSize - 1)
            nodes[Int(node)].right = first
            if first >= 0 { nodes[Int(first)].parent = node }
            updateSize(node)
            if rest >= 0 { nodes[Int(rest)].parent = -1 }
            return (node, rest)
        }
    }

    /// Merges two subtrees, every slot of `first` before every slot of `second`.
    private mutating func merge(_ first: Int32, _ second: Int32) -> Int32 {
        guard first >= 0 else { return second }
        guard second >= 0 else { return first }
        if nodes[Int(first)].priority > nodes[Int(second)].priority {
            let merged = merge(nodes[Int(first)].right, second)
            nodes[Int(first)].right = merged
            nodes[Int(merged)].parent = first
            updateSize(first)
            return first
        } else {
            let merged = merge(first, nodes[Int(second)].left)
            nodes[Int(second)].left = merged
            nodes[Int(merged)].parent = second
            updateSize(second)
            return second
        }
    }

    private mutating func updateSize(_ node: Int32) {
        let left = nodes[Int(node)].left
        let right = nodes[Int(node)].right
        nodes[Int(node)].size = 1 + (left < 0 ? 0 : nodes[Int(left)].size) + (right < 0 ? 0 : nodes[Int(right)].size)
    }
}
