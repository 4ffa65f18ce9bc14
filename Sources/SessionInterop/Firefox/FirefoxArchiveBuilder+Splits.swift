import SessionModel
import SessionStorage

extension FirefoxArchiveBuilder {
    /// Gives the tabs of each Firefox split view in `tabs` their split, and
    /// returns the splits in list order.
    ///
    /// `keys[i]` is the `splitViewId` of `tabs[i]`; `views` is the
    /// `splitViews` list of their window (or closed group). Firefox restores a
    /// split view only when that list names it and its `numberOfTabs` tabs have
    /// come (`tabbrowser.js`, `createTabsForSessionRestore`); the store
    /// further wants exactly two neighbouring tabs, both pinned or neither, in
    /// one group. Any other split view is dropped, counted, and its tabs stay
    /// single tabs. Firefox records no ratio or layout, so each split gets the
    /// defaults: half and half, side by side.
    mutating func assignSplits(
        _ tabs: inout [SessionArchive.Tab], keys: [FirefoxSessionFile.SplitViewID?],
        views: [FirefoxSessionFile.Lenient<FirefoxSessionFile.SplitView>]?
    ) -> [SessionArchive.Split] {
        let candidates = SplitCandidate.find(keys, in: tabs)
        guard !candidates.isEmpty else { return [] }
        var announced: [FirefoxSessionFile.SplitViewID: Int] = [:]
        for view in views ?? [] {
            if let view = view.value, announced[view.id] == nil { announced[view.id] = view.numberOfTabs ?? 0 }
        }
        var splits: [SessionArchive.Split] = []
        for candidate in candidates {
            guard announced[candidate.key] == 2 else {
                tally.unlistedSplits += 1
                continue
            }
            guard candidate.isKeepable else {
                tally.brokenSplits += 1
                continue
            }
            let split = SessionArchive.Split(id: TabSplitID(), ratio: 0.5, layout: .vertical)
            for member in candidate.members { tabs[member].split = split.id }
            splits.append(split)
        }
        return splits
    }
}
