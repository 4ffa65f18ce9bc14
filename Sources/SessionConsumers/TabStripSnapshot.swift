import SessionModel

/// Everything a tab strip shows of one browser: its tabs in order.
///
/// Pinned tabs come first; a group's tabs are contiguous; at most one tab is
/// active. Those are the model's invariants, and a snapshot a mediator pushes
/// keeps them.
public struct TabStripSnapshot: Hashable, Sendable {
    /// The browser (window) the tabs belong to.
    public var browser: BrowserID
    /// The tabs, in order.
    public var items: [TabItem]

    /// Creates a snapshot.
    public init(browser: BrowserID, items: [TabItem] = []) {
        self.browser = browser
        self.items = items
    }

    /// The index of the active tab, if any.
    public var activeIndex: Int? { items.firstIndex(where: \.isActive) }

    /// The number of pinned tabs (they come first).
    public var pinnedCount: Int { items.prefix(while: \.isPinned).count }

    /// The groups, in strip order.
    public var groups: [TabGroupItem] {
        var result: [TabGroupItem] = []
        for group in items.compactMap(\.group) where result.last?.id != group.id {
            result.append(group)
        }
        return result
    }

    /// The split views in strip order, each once.
    public var splits: [TabSplitItem] {
        var result: [TabSplitItem] = []
        for split in items.compactMap(\.split) where result.last?.id != split.id {
            result.append(split)
        }
        return result
    }

    /// The split that holds the active tab, if any: a split counts as active when either of its tabs is.
    public var activeSplit: TabSplitItem? {
        items.first(where: \.isActive)?.split
    }

    /// Applies `diff` to this snapshot's tabs.
    ///
    /// - Throws: ``ItemDiffError`` if the diff does not fit these tabs.
    public func applying(_ diff: TabStripDiff) throws(ItemDiffError) -> TabStripSnapshot {
        TabStripSnapshot(browser: browser, items: try diff.apply(to: items))
    }
}

/// How a tab strip changes between two snapshots; see ``ItemDiff``.
public typealias TabStripDiff = ItemDiff<TabItem>
