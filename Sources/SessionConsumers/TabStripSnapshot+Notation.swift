extension TabStripSnapshot {
    /// The strip in the tab-list notation of <doc:TabListRules>: pinned tabs, then `|`,
    /// then the rest; a group's tabs between `[ … ]`; a split's two tabs between `{ … }`;
    /// `*` after the active tab.
    ///
    ///     strip.notation(label: { $0.title }, groupOpening: { ["[", $0.title] })  // "Docs | [ Work Mail* ] News"
    ///
    /// - Parameters:
    ///   - label: How to print a tab.
    ///   - groupOpening: The tokens that open a group (after which its tabs follow).
    ///   - splitOpening: The tokens that open a split; `{` by default.
    public func notation(
        label: (TabItem) -> String, groupOpening: (TabGroupItem) -> [String],
        splitOpening: (TabSplitItem) -> [String] = { _ in ["{"] }
    ) -> String {
        var tokens: [String] = []
        var separatorAdded = false
        for (index, item) in items.enumerated() {
            let previousGroup = index > 0 ? items[index - 1].group?.id : nil
            let nextGroup = index + 1 < items.count ? items[index + 1].group?.id : nil
            if !separatorAdded, !item.isPinned {
                tokens.append("|")
                separatorAdded = true
            }
            if let group = item.group, group.id != previousGroup { tokens += groupOpening(group) }
            let previousSplit = index > 0 ? items[index - 1].split?.id : nil
            let splitStarts = item.split != nil && item.split?.id != previousSplit
            if let split = item.split, splitStarts { tokens += splitOpening(split) }
            tokens.append(item.isActive ? label(item) + "*" : label(item))
            if item.split != nil, !splitStarts { tokens.append("}") }
            if let group = item.group?.id, group != nextGroup { tokens.append("]") }
        }
        if !separatorAdded { tokens.append("|") }
        return tokens.joined(separator: " ")
    }
}
