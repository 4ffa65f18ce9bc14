import Foundation

/// A tab's back/forward list: its entries, oldest first, and the current one.
///
/// Examples below write a history as letters, one per entry, with `*` after
/// the current one: `"a b* c"` has three entries and is at the second.
///
/// Invariants (<doc:TabListRules>, Navigation history):
/// - ``currentIndex`` is `nil` exactly when the history is empty, and designates
///   an entry otherwise. The database stores `NULL` for `nil`.
/// - Every entry has passed ``NavigationItem/validated()``.
///
/// A value type with no threading of its own. Every mutation returns a
/// ``NavigationHistoryChange`` that says which rows to write; a mutation that
/// throws leaves the history unchanged.
///
/// ## Topics
/// ### Creating
/// - ``init()``
/// - ``init(items:currentIndex:)``
/// ### Reading
/// - ``items``
/// - ``currentIndex``
/// - ``count``
/// - ``isEmpty``
/// - ``currentItem``
/// - ``canGoBack``
/// - ``canGoForward``
/// - ``backItems``
/// - ``forwardItems``
/// ### Navigating
/// - ``commit(_:)``
/// - ``goBack()``
/// - ``goForward()``
/// - ``go(to:)``
/// ### Editing entries
/// - ``replaceCurrent(with:)``
/// - ``updateItem(at:title:faviconURL:)``
/// ### Removing entries
/// - ``trim(toAtMost:)``
/// - ``removeAll(where:)``
public struct NavigationHistory: Hashable, Sendable, Codable {
    /// The entries, oldest first.
    public private(set) var items: [NavigationItem]

    /// The index of the current entry; `nil` exactly when the history is empty.
    public private(set) var currentIndex: Int?

    /// Creates an empty history.
    public init() {
        self.items = []
        self.currentIndex = nil
    }

    /// Creates a history from stored entries and current index.
    ///
    /// Each entry is passed through ``NavigationItem/validated()``, so a title
    /// that is too long is truncated.
    ///
    /// - Parameters:
    ///   - items: The entries, oldest first.
    ///   - currentIndex: The current entry; `nil` exactly when `items` is empty.
    /// - Throws: ``NavigationHistoryError/indexOutOfRange(index:count:)`` if
    ///   `currentIndex` is `nil` for a non-empty history (reported as index `-1`),
    ///   or does not designate an entry; any error of ``NavigationItem/validated()``.
    public init(items: [NavigationItem], currentIndex: Int?) throws {
        if let currentIndex {
            guard items.indices.contains(currentIndex) else {
                throw NavigationHistoryError.indexOutOfRange(index: currentIndex, count: items.count)
            }
        } else if !items.isEmpty {
            throw NavigationHistoryError.indexOutOfRange(index: -1, count: items.count)
        }
        self.items = try items.map { try $0.validated() }
        self.currentIndex = currentIndex
    }

    // MARK: - Reading

    /// The number of entries.
    public var count: Int { items.count }

    /// Whether the history has no entry.
    public var isEmpty: Bool { items.isEmpty }

    /// The current entry; `nil` when the history is empty.
    public var currentItem: NavigationItem? { currentIndex.map { items[$0] } }

    /// Whether there is an entry before the current one.
    public var canGoBack: Bool { (currentIndex ?? 0) > 0 }

    /// Whether there is an entry after the current one.
    public var canGoForward: Bool { currentIndex.map { $0 < items.count - 1 } ?? false }

    /// The entries before the current one, oldest first.
    public var backItems: [NavigationItem] {
        guard let currentIndex else { return [] }
        return Array(items[..<currentIndex])
    }

    /// The entries after the current one, oldest (nearest) first.
    public var forwardItems: [NavigationItem] {
        guard let currentIndex else { return [] }
        return Array(items[(currentIndex + 1)...])
    }

    // MARK: - Navigating

    /// Commits a new navigation: drops every entry after the current one, appends `item` and makes it current.
    ///
    ///     "a b* c"  commit(d)  ->  "a b d*"      removed [2], inserted [2]
    ///     ""        commit(a)  ->  "a*"          inserted [0]
    ///
    /// - Parameter item: The new entry; it is stored as ``NavigationItem/validated()`` returns it.
    /// - Returns: What changed.
    /// - Throws: Any error of ``NavigationItem/validated()``.
    @discardableResult
    public mutating func commit(_ item: NavigationItem) throws -> NavigationHistoryChange {
        let item = try item.validated()
        let previous = currentIndex
        let kept = previous.map { $0 + 1 } ?? 0
        let removed = Array(kept..<items.count)
        items.removeSubrange(kept...)
        items.append(item)
        currentIndex = kept
        return NavigationHistoryChange(
            removedIndexes: removed, insertedIndexes: [kept], previousCurrentIndex: previous, currentIndex: kept
        )
    }

    /// Makes the entry before the current one current.
    ///
    ///     "a b* c"  goBack()  ->  "a* b c"
    ///
    /// - Returns: What changed: the current index only.
    /// - Throws: ``NavigationHistoryError/cannotGoBack`` if the current entry is the first, or the history is empty.
    @discardableResult
    public mutating func goBack() throws -> NavigationHistoryChange {
        guard canGoBack, let previous = currentIndex else { throw NavigationHistoryError.cannotGoBack }
        return moveCurrent(from: previous, to: previous - 1)
    }

    /// Makes the entry after the current one current.
    ///
    ///     "a b* c"  goForward()  ->  "a b c*"
    ///
    /// - Returns: What changed: the current index only.
    /// - Throws: ``NavigationHistoryError/cannotGoForward`` if the current entry is the last, or the history is empty.
    @discardableResult
    public mutating func goForward() throws -> NavigationHistoryChange {
        guard canGoForward, let previous = currentIndex else { throw NavigationHistoryError.cannotGoForward }
        return moveCurrent(from: previous, to: previous + 1)
    }

    /// Makes the entry at `index` current.
    ///
    ///     "a b* c"  go(to: 2)  ->  "a b c*"
    ///
    /// - Parameter index: The index of an entry; the current index itself changes nothing.
    /// - Returns: What changed: the current index only; empty if `index` was already current.
    /// - Throws: ``NavigationHistoryError/indexOutOfRange(index:count:)`` if `index` designates no entry.
    @discardableResult
    public mutating func go(to index: Int) throws -> NavigationHistoryChange {
        try checkIndex(index)
        return moveCurrent(from: currentIndex, to: index)
    }

    // MARK: - Editing entries

    /// Replaces the current entry (a redirect, `history.replaceState`), keeping the current index.
    ///
    ///     "a b* c"  replaceCurrent(with: x)  ->  "a x* c"      updated [1]
    ///
    /// - Parameter item: The new entry; it is stored as ``NavigationItem/validated()`` returns it.
    /// - Returns: What changed: the current index as updated; empty if the stored entry equals `item`.
    /// - Throws: ``NavigationHistoryError/indexOutOfRange(index:count:)`` (index 0, count 0) if the
    ///   history is empty; any error of ``NavigationItem/validated()``.
    @discardableResult
    public mutating func replaceCurrent(with item: NavigationItem) throws -> NavigationHistoryChange {
        guard let index = currentIndex else { throw NavigationHistoryError.indexOutOfRange(index: 0, count: 0) }
        return replaceItem(at: index, with: try item.validated())
    }

    /// Updates the title and/or favicon of the entry at `index`, after the page loaded them.
    ///
    /// - Parameters:
    ///   - index: The index of an entry.
    ///   - title: The new title, truncated as ``NavigationItem/validated()`` does; `nil` leaves it as is.
    ///   - faviconURL: `nil` leaves the favicon as is, `.some(nil)` clears it, `.some(url)` sets it.
    /// - Returns: What changed: `index` as updated; empty if neither field changed.
    /// - Throws: ``NavigationHistoryError/indexOutOfRange(index:count:)`` if `index` designates no entry;
    ///   ``NavigationHistoryError/urlTooLong(field:length:)`` (field `"faviconURL"`) if the favicon URL is too long.
    @discardableResult
    public mutating func updateItem(
        at index: Int, title: String?, faviconURL: String??
    ) throws -> NavigationHistoryChange {
        try checkIndex(index)
        var item = items[index]
        if let title { item.title = title }
        if let faviconURL { item.faviconURL = faviconURL }
        return replaceItem(at: index, with: try item.validated())
    }

    // MARK: - Removing entries

    /// Keeps at most `maximum` entries, removing those farthest from the current one.
    ///
    /// Entries are removed one at a time, always the one farthest from the
    /// current entry; when the first and the last entry are equally far, the
    /// first (older) one goes. The current entry always stays, so the result is
    /// a contiguous run of entries around it (<doc:TabListRules>, Navigation history).
    ///
    ///     "a b c* d e"  trim(toAtMost: 3)  ->  "b c* d"      removed [0, 4]
    ///     "a b c* d"    trim(toAtMost: 2)  ->  "c* d"        removed [0, 1]  (b and d tie: b goes)
    ///     "a* b c d"    trim(toAtMost: 2)  ->  "a* b"        removed [2, 3]
    ///
    /// - Parameter maximum: The most entries to keep, at least 1; ``NavigationLimits/defaultMaximumEntries``
    ///   is Chrome iOS's value.
    /// - Returns: What changed; empty if the history already had at most `maximum` entries.
    /// - Throws: ``NavigationHistoryError/invalidMaximumEntries(_:)`` if `maximum` is less than 1.
    @discardableResult
    public mutating func trim(toAtMost maximum: Int) throws -> NavigationHistoryChange {
        guard maximum >= 1 else { throw NavigationHistoryError.invalidMaximumEntries(maximum) }
        guard items.count > maximum, let current = currentIndex else {
            return NavigationHistoryChange(previousCurrentIndex: currentIndex, currentIndex: currentIndex)
        }
        // Entries kept before and after the current one; shrink the longer side, the older one on a tie.
        var before = current
        var after = items.count - 1 - current
        for _ in 0..<(items.count - maximum) {
            if before >= after { before -= 1 } else { after -= 1 }
        }
        let kept = (current - before)...(current + after)
        let removed = Array(0..<kept.lowerBound) + Array((kept.upperBound + 1)..<items.count)
        items = Array(items[kept])
        currentIndex = before
        return NavigationHistoryChange(removedIndexes: removed, previousCurrentIndex: current, currentIndex: before)
    }

    /// Removes every entry for which `predicate` is true (clearing browsing data), keeping the history valid.
    ///
    /// If the current entry survives, it stays current. Otherwise the nearest
    /// surviving entry becomes current; when one before and one after are
    /// equally near, the one before wins (as if the user had gone back). When
    /// every entry goes, the history is empty and ``currentIndex`` is `nil`.
    ///
    ///     "a b* c d"  removeAll(where: b or c)  ->  "a* d"       removed [1, 2]
    ///     "a b c* d"  removeAll(where: b or c)  ->  "a d*"       removed [1, 2]  (d is nearer)
    ///
    /// - Parameter predicate: Returns `true` for the entries to remove.
    /// - Returns: What changed; empty if no entry matched.
    @discardableResult
    public mutating func removeAll(where predicate: (NavigationItem) -> Bool) -> NavigationHistoryChange {
        let removed = items.indices.filter { predicate(items[$0]) }
        let previous = currentIndex
        guard !removed.isEmpty else {
            return NavigationHistoryChange(previousCurrentIndex: previous, currentIndex: previous)
        }
        let removing = RemovingIndexes(removed)
        var next: Int?
        if let previous {
            // The nearest survivor, looking at distance 1, 2, …, before first at each distance.
            let survivor = (0..<items.count).lazy
                .flatMap { distance in [previous - distance, previous + distance] }
                .first { self.items.indices.contains($0) && !removing.contains($0) }
            next = survivor.flatMap { removing.indexAfterRemoval($0) }
        }
        for index in removed.reversed() {
            items.remove(at: index)
        }
        currentIndex = next
        return NavigationHistoryChange(removedIndexes: removed, previousCurrentIndex: previous, currentIndex: next)
    }

    // MARK: - Private

    /// Throws unless `index` designates an entry.
    private func checkIndex(_ index: Int) throws {
        guard items.indices.contains(index) else {
            throw NavigationHistoryError.indexOutOfRange(index: index, count: items.count)
        }
    }

    /// Makes `index` current and describes it.
    private mutating func moveCurrent(from previous: Int?, to index: Int) -> NavigationHistoryChange {
        currentIndex = index
        return NavigationHistoryChange(previousCurrentIndex: previous, currentIndex: index)
    }

    /// Stores an already validated `item` at `index`, reporting an update only if it differs.
    private mutating func replaceItem(at index: Int, with item: NavigationItem) -> NavigationHistoryChange {
        let updated = items[index] != item
        items[index] = item
        return NavigationHistoryChange(
            updatedIndexes: updated ? [index] : [], previousCurrentIndex: currentIndex, currentIndex: currentIndex
        )
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case items
        case currentIndex
    }

    /// Decodes a history and checks it as ``init(items:currentIndex:)`` does.
    ///
    /// - Throws: `DecodingError.dataCorrupted` if the entries and current index do not form a valid history.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let items = try container.decode([NavigationItem].self, forKey: .items)
        let currentIndex = try container.decodeIfPresent(Int.self, forKey: .currentIndex)
        do {
            try self.init(items: items, currentIndex: currentIndex)
        } catch let error as NavigationHistoryError {
            throw DecodingError.dataCorruptedError(
                forKey: .currentIndex, in: container, debugDescription: error.description
            )
        }
    }

    /// Encodes the entries and the current index (omitted when `nil`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encodeIfPresent(currentIndex, forKey: .currentIndex)
    }
}

// MARK: - NavigationHistoryChange

/// What one ``NavigationHistory`` mutation changed, in the rows a storage writer must touch.
///
/// Indexes are given in ascending order. To bring stored rows `0..<n` (the
/// old entries) in line with the new history, a writer:
/// 1. deletes the rows at ``removedIndexes`` (old numbering);
/// 2. renumbers every other row to ``newIndex(forOldIndex:)``: its old index
///    minus the number of removed indexes below it. Indexes only ever move
///    down, so renumbering in ascending order never collides;
/// 3. inserts the new history's entries at ``insertedIndexes`` (new numbering).
///    Inserted entries always come after every surviving entry;
/// 4. rewrites the surviving entries at ``updatedIndexes`` (new numbering);
/// 5. stores ``currentIndex`` (`NULL` for `nil`) if it differs from ``previousCurrentIndex``.
///
/// The description is exact: a surviving entry is in ``updatedIndexes`` only
/// if one of its fields changed, and every other surviving entry is equal to
/// the old entry it came from.
///
///     "a b* c"  commit(d)  ->  "a b d*"   removed [2], inserted [2], current 1 -> 2
public struct NavigationHistoryChange: Hashable, Sendable {
    /// The entries removed, as indexes into the history before the mutation, ascending.
    public var removedIndexes: [Int]

    /// The entries added, as indexes into the history after the mutation, ascending.
    public var insertedIndexes: [Int]

    /// The surviving entries whose fields changed, as indexes into the history after the mutation, ascending.
    public var updatedIndexes: [Int]

    /// The current index before the mutation.
    public var previousCurrentIndex: Int?

    /// The current index after the mutation.
    public var currentIndex: Int?

    /// Creates a change; by default nothing is removed, inserted or updated, and there is no current index.
    public init(
        removedIndexes: [Int] = [],
        insertedIndexes: [Int] = [],
        updatedIndexes: [Int] = [],
        previousCurrentIndex: Int? = nil,
        currentIndex: Int? = nil
    ) {
        self.removedIndexes = removedIndexes
        self.insertedIndexes = insertedIndexes
        self.updatedIndexes = updatedIndexes
        self.previousCurrentIndex = previousCurrentIndex
        self.currentIndex = currentIndex
    }

    /// Whether the current index differs after the mutation.
    public var currentIndexChanged: Bool { previousCurrentIndex != currentIndex }

    /// Whether the mutation changed nothing: no entry removed, inserted or updated, and the same current index.
    public var isEmpty: Bool {
        removedIndexes.isEmpty && insertedIndexes.isEmpty && updatedIndexes.isEmpty && !currentIndexChanged
    }

    /// Returns the index, after the mutation, of the entry that was at `oldIndex`; `nil` if it was removed.
    ///
    ///     removedIndexes [1, 3]:  newIndex(forOldIndex: 0) -> 0, (1) -> nil, (2) -> 1, (4) -> 2
    public func newIndex(forOldIndex oldIndex: Int) -> Int? {
        RemovingIndexes(removedIndexes).indexAfterRemoval(oldIndex)
    }
}
