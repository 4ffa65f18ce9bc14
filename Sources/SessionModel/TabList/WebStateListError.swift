import Foundation

/// Why a ``WebStateList`` mutation was refused.
///
/// A mutation that throws leaves the list unchanged.
public enum WebStateListError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// An index does not designate a tab of the list.
    case indexOutOfRange(index: Int, count: Int)
    /// A tab (for example an opener) is not in the list.
    case unknownWebState(WebStateID)
    /// A group is not in the list.
    case unknownGroup(TabGroupID)
    /// A tab with this identifier is already in the list.
    case duplicateWebState(WebStateID)
    /// A group with this identifier is already in the list.
    case duplicateGroup(TabGroupID)
    /// A split is not in the list.
    case unknownSplit(TabSplitID)
    /// A split with this identifier is already in the list.
    case duplicateSplit(TabSplitID)
    /// A split was asked for with other than two distinct tabs.
    case splitNeedsTwoTabs(count: Int)
    /// A tab is already in a split.
    case alreadyInSplit(WebStateID)
    /// An insertion asked for a pinned tab inside a group.
    case pinnedAndGrouped
    /// An observer tried to mutate the list while a mutation was being applied.
    case reentrantMutation
    /// Stored parts do not form a valid list, or a mutation would break an invariant.
    case invalidState([WebStateListViolation])

    /// One plain sentence that says what went wrong.
    public var description: String {
        switch self {
        case let .indexOutOfRange(index, count):
            return "Index \(index) is out of range for a list of \(count) tabs."
        case let .unknownWebState(id):
            return "Tab \(id) is not in the list."
        case let .unknownGroup(id):
            return "Tab group \(id) is not in the list."
        case let .duplicateWebState(id):
            return "Tab \(id) is already in the list."
        case let .duplicateGroup(id):
            return "Tab group \(id) is already in the list."
        case let .unknownSplit(id):
            return "Split view \(id) is not in the list."
        case let .duplicateSplit(id):
            return "Split view \(id) is already in the list."
        case let .splitNeedsTwoTabs(count):
            return "A split view needs two different tabs, not \(count)."
        case let .alreadyInSplit(id):
            return "Tab \(id) is already in a split view."
        case .pinnedAndGrouped:
            return "A tab cannot be both pinned and in a group."
        case .reentrantMutation:
            return "The tab list cannot be mutated while a mutation is being applied."
        case let .invalidState(violations):
            let details = violations.map { String($0.description.dropLast()) }.joined(separator: "; ")
            return "The tab list breaks \(violations.count) invariant(s): \(details)."
        }
    }
}

extension WebStateListError {
    /// The same one-sentence message as `description`, for alerts and `localizedDescription`.
    public var errorDescription: String? { description }
}
