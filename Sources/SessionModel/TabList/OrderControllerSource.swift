/// The narrow view of a tab list that the ``OrderController`` needs.
///
/// Keeping the rules behind this protocol lets them run on the live
/// ``WebStateList`` or on a stored copy, and lets tests feed them a fake,
/// as Chromium's `order_controller_source.h` does.
package protocol OrderControllerSource {
    /// The number of tabs.
    var count: Int { get }
    /// The number of pinned tabs, which come first.
    var pinnedCount: Int { get }
    /// The identifier of the tab at `index`.
    func id(at index: Int) -> WebStateID
    /// The opener of the tab at `index`, if any.
    func opener(at index: Int) -> WebStateOpener?
    /// The current history index of the tab at `index`; `nil` for an empty history.
    func navigationIndex(at index: Int) -> Int?
    /// The group of the tab at `index`, if any.
    func groupID(at index: Int) -> TabGroupID?
    /// The indexes of the tabs of `group`; `nil` if the group is not in the list.
    func range(of group: TabGroupID) -> Range<Int>?
    /// Whether `group` is collapsed.
    func isCollapsed(group: TabGroupID) -> Bool
    /// The index of the tab whose identifier is `id`, if any.
    func index(of id: WebStateID) -> Int?
    /// The indexes of the tabs whose opener is the tab `id`, in any order.
    func childIndexes(ofOpener id: WebStateID) -> [Int]
}
