// MARK: - Activation

extension WebStateList {
    /// Makes the tab at `index` the active one, or leaves no tab active when `index` is `nil`.
    ///
    /// Activating the active tab changes nothing.
    ///
    ///     "| a* b c"  activate(at: 2)    ->  "| a b c*"
    ///     "| a* b c"  activate(at: nil)  ->  "| a b c"
    ///
    /// - Parameter index: The index of the tab to activate, or `nil`.
    /// - Returns: What changed; empty if the tab was already active.
    /// - Throws: ``WebStateListError/indexOutOfRange(index:count:)`` if `index` designates no tab.
    @discardableResult
    public mutating func activate(at index: Int?) throws -> WebStateListChange {
        if let index { try checkIndex(index) }
        // TabListRules.md, Replace and activate: activating the active tab changes nothing.
        guard index != activeIndex else { return WebStateListChange() }
        var change = WebStateListChange()
        change.recordActive(from: activeWebState?.id, to: index.map { tabs[$0].id })
        activeIndex = index
        return record(change)
    }
}
