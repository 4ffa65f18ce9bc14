import Foundation

/// What turns one ordered list of identified items into another: removals,
/// moves, insertions and updates, applied in that order.
///
/// A consumer that keeps the previous list (a tab strip's cells, a window
/// list's rows) applies a diff step by step, exactly as ``apply(to:)`` does:
///
/// 1. ``removed``: each removal, in order, removes the item at its index.
///    Removals come in descending index order, so every index is also the
///    item's index in the previous list.
/// 2. ``moved``: each move, in order, removes the item at `from` and inserts
///    it at `to` (both indexes in the list as it is at that step).
/// 3. ``inserted``: each insertion, in order, inserts its item at its index.
///    Insertions come in ascending index order, so every index is also the
///    item's index in the new list.
/// 4. ``updated``: each update replaces the item at its index (an index in the
///    new list) with a new value of the same identity.
///
///     previous  a b c d        new  d a c x
///     removed   [1: b]         ->   a c d
///     moved     [d: 2 -> 0]    ->   d a c
///     inserted  [3: x]         ->   d a c x
///
/// An item that moved and changed appears in both ``moved`` and ``updated``.
///
/// ## Topics
/// ### Steps
/// - ``removed``
/// - ``moved``
/// - ``inserted``
/// - ``updated``
/// - ``Removal``
/// - ``Move``
/// - ``Placement``
/// ### Applying
/// - ``apply(to:)``
/// - ``isEmpty``
/// - ``summary``
public struct ItemDiff<Item: Identifiable & Hashable & Sendable>: Hashable, Sendable where Item.ID: Sendable {
    /// An item that leaves the list.
    public struct Removal: Hashable, Sendable {
        /// Its index, in the previous list and at this step.
        public var index: Int
        /// Its identifier.
        public var id: Item.ID

        /// Creates a removal.
        public init(index: Int, id: Item.ID) {
            self.index = index
            self.id = id
        }
    }

    /// An item that changes place.
    public struct Move: Hashable, Sendable {
        /// Its identifier.
        public var id: Item.ID
        /// Its index before this step.
        public var from: Int
        /// Its index after this step.
        public var to: Int

        /// Creates a move.
        public init(id: Item.ID, from: Int, to: Int) {
            self.id = id
            self.from = from
            self.to = to
        }
    }

    /// An item placed at an index of the new list: an insertion or an update.
    public struct Placement: Hashable, Sendable {
        /// Its index in the new list.
        public var index: Int
        /// The item as it is now.
        public var item: Item

        /// Creates a placement.
        public init(index: Int, item: Item) {
            self.index = index
            self.item = item
        }
    }

    /// The items that leave, in descending index order.
    public var removed: [Removal]
    /// The items that change place, in the order to apply them.
    public var moved: [Move]
    /// The new items, in ascending index order.
    public var inserted: [Placement]
    /// The items that stay but changed, by their index in the new list.
    public var updated: [Placement]

    /// Creates a diff from its steps.
    public init(removed: [Removal] = [], moved: [Move] = [], inserted: [Placement] = [], updated: [Placement] = []) {
        self.removed = removed
        self.moved = moved
        self.inserted = inserted
        self.updated = updated
    }

    /// Whether the diff changes nothing.
    public var isEmpty: Bool {
        removed.isEmpty && moved.isEmpty && inserted.isEmpty && updated.isEmpty
    }

    /// The step counts in one short phrase, such as `"-1 +2 >0 ~1"`
    /// (removed, inserted, moved, updated).
    public var summary: String {
        "-\(removed.count) +\(inserted.count) >\(moved.count) ~\(updated.count)"
    }

    /// Applies the diff's steps, in order, to `items`.
    ///
    /// - Returns: The new list.
    /// - Throws: ``ItemDiffError`` when a step does not fit the list: an index out
    ///   of range, or an identifier that is not the one at the index.
    public func apply(to items: [Item]) throws(ItemDiffError) -> [Item] {
        var items = items
        for removal in removed {
            guard items.indices.contains(removal.index), items[removal.index].id == removal.id else {
                throw .removal(index: removal.index)
            }
            items.remove(at: removal.index)
        }
        for move in moved {
            guard items.indices.contains(move.from), items[move.from].id == move.id, items.indices.contains(move.to)
            else { throw .move(from: move.from, to: move.to) }
            let item = items.remove(at: move.from)
            items.insert(item, at: move.to)
        }
        for insertion in inserted {
            guard (0...items.count).contains(insertion.index) else { throw .insertion(index: insertion.index) }
            items.insert(insertion.item, at: insertion.index)
        }
        for update in updated {
            guard items.indices.contains(update.index), items[update.index].id == update.item.id else {
                throw .update(index: update.index)
            }
            items[update.index] = update.item
        }
        return items
    }
}

/// A diff step that does not fit the list it is applied to.
public enum ItemDiffError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// A removal's index is out of range or holds another item.
    case removal(index: Int)
    /// A move's indexes are out of range, or `from` holds another item.
    case move(from: Int, to: Int)
    /// An insertion's index is out of range.
    case insertion(index: Int)
    /// An update's index is out of range or holds another item.
    case update(index: Int)

    public var description: String {
        switch self {
        case .removal(let index): "The diff removes index \(index), which does not hold the item it names."
        case .move(let from, let to): "The diff moves \(from) to \(to), which does not fit the list."
        case .insertion(let index): "The diff inserts at index \(index), which is out of range."
        case .update(let index): "The diff updates index \(index), which does not hold the item it names."
        }
    }
}

extension ItemDiffError {
    /// The same one-sentence message as `description`, for alerts and `localizedDescription`.
    public var errorDescription: String? { description }
}
