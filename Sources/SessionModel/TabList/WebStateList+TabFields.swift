import Foundation

// MARK: - Tab fields

extension WebStateList {
    /// Records the current history index of the tab at `index` (its history changed).
    ///
    /// Children keep the opener navigation index they recorded, so a tab that
    /// navigates away stops counting them as children for placement
    /// (<doc:TabListRules>, Insertion, step 4).
    ///
    /// - Parameters:
    ///   - navigationIndex: The new current history index; `nil` for an empty history.
    ///   - index: The index of the tab.
    /// - Returns: What changed: the tab is updated, or nothing if the index was already `navigationIndex`.
    /// - Throws: ``WebStateListError/indexOutOfRange(index:count:)`` if `index` designates no tab.
    @discardableResult
    public mutating func setNavigationIndex(_ navigationIndex: Int?, forTabAt index: Int) throws -> WebStateListChange {
        try set(\.navigationIndex, to: navigationIndex, forTabAt: index)
    }

    /// Records when the tab at `index` was last active.
    ///
    /// - Parameters:
    ///   - date: The time the tab was last active.
    ///   - index: The index of the tab.
    /// - Returns: What changed: the tab is updated, or nothing if the date was already `date`.
    /// - Throws: ``WebStateListError/indexOutOfRange(index:count:)`` if `index` designates no tab.
    @discardableResult
    public mutating func setLastActiveAt(_ date: Date, forTabAt index: Int) throws -> WebStateListChange {
        try set(\.lastActiveAt, to: date, forTabAt: index)
    }

    /// Records when the tab at `index` was created (a store sets it to the
    /// precision it keeps, so a list read back equals the one written).
    ///
    /// - Returns: What changed: the tab is updated, or nothing if the date was already `date`.
    /// - Throws: ``WebStateListError/indexOutOfRange(index:count:)`` if `index` designates no tab.
    @discardableResult
    public mutating func setCreatedAt(_ date: Date, forTabAt index: Int) throws -> WebStateListChange {
        try set(\.createdAt, to: date, forTabAt: index)
    }

    /// Sets one field of the tab at `index`, recording the tab as updated if the value changed.
    private mutating func set<Value: Equatable>(
        _ field: WritableKeyPath<WebState, Value>, to value: Value, forTabAt index: Int
    ) throws -> WebStateListChange {
        try checkIndex(index)
        guard tabs[index][keyPath: field] != value else { return WebStateListChange() }
        tabs.update(at: index) { $0[keyPath: field] = value }
        return record(WebStateListChange(updated: [tabs[index].id]))
    }
}
