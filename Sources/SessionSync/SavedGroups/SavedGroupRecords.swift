/// A saved group's own fields: one account-wide record per group, which any device may write
/// (docs/sync-protocol.md, "Saved groups").
///
/// Each field is a ``LastWriterWins`` register, so a rename sends this small record alone,
/// whatever the number of the group's tabs.
package struct SavedGroupHeader: Hashable, Sendable, Codable {
    /// The group's id, the same on every device.
    package var id: String
    /// Its title.
    package var title: LastWriterWins<String>
    /// Its colour's name (`grey`, `blue`, … as in `TabGroupColor`).
    package var color: LastWriterWins<String>
    /// Whether it exists: a delete is a write of ``SavedGroupPresence/deleted``.
    package var presence: LastWriterWins<SavedGroupPresence>

    /// A header.
    package init(
        id: String, title: LastWriterWins<String>, color: LastWriterWins<String>,
        presence: LastWriterWins<SavedGroupPresence>
    ) {
        self.id = id
        self.title = title
        self.color = color
        self.presence = presence
    }

    /// Both records' writes, field by field.
    ///
    /// - Precondition: both describe the same group.
    package func merged(with other: Self) -> Self {
        precondition(id == other.id, "merging two different groups")
        return Self(
            id: id, title: title.merged(with: other.title), color: color.merged(with: other.color),
            presence: presence.merged(with: other.presence))
    }
}

/// A tab of a saved group: one account-wide record per tab.
///
/// Its group is a field too, so a tab moved to another group is one write.
package struct SavedGroupTab: Hashable, Sendable, Codable {
    /// The tab's id, the same on every device.
    package var id: String
    /// The id of the group it belongs to.
    package var group: LastWriterWins<String>
    /// The page's URL.
    package var url: LastWriterWins<String>
    /// The page's title.
    package var title: LastWriterWins<String>
    /// Its place in its group (``FractionalPosition``); ties order by tab id.
    package var position: LastWriterWins<String>
    /// Whether it is in its group: a removal is a write of ``SavedGroupPresence/deleted``.
    package var presence: LastWriterWins<SavedGroupPresence>

    /// A tab record.
    package init(
        id: String, group: LastWriterWins<String>, url: LastWriterWins<String>, title: LastWriterWins<String>,
        position: LastWriterWins<String>, presence: LastWriterWins<SavedGroupPresence>
    ) {
        self.id = id
        self.group = group
        self.url = url
        self.title = title
        self.position = position
        self.presence = presence
    }

    /// Both records' writes, field by field.
    ///
    /// - Precondition: both describe the same tab.
    package func merged(with other: Self) -> Self {
        precondition(id == other.id, "merging two different tabs")
        return Self(
            id: id, group: group.merged(with: other.group), url: url.merged(with: other.url),
            title: title.merged(with: other.title), position: position.merged(with: other.position),
            presence: presence.merged(with: other.presence))
    }
}

/// Every saved group of the account, as one device knows it: the merge of every record it has.
///
/// ``merged(with:)`` is a pure function of the records: commutative, associative and
/// idempotent, so devices that have received the same records, in any order, agree.
package struct SavedGroupsState: Hashable, Sendable, Codable {
    /// The groups' headers, by group id.
    package var groups: [String: SavedGroupHeader] = [:]
    /// The tabs, by tab id.
    package var tabs: [String: SavedGroupTab] = [:]

    /// An empty state.
    package init(groups: [String: SavedGroupHeader] = [:], tabs: [String: SavedGroupTab] = [:]) {
        self.groups = groups
        self.tabs = tabs
    }

    /// Every record of both, those of one id merged.
    package func merged(with other: Self) -> Self {
        Self(
            groups: groups.merging(other.groups) { $0.merged(with: $1) },
            tabs: tabs.merging(other.tabs) { $0.merged(with: $1) })
    }

    /// Takes in one header, as received.
    package mutating func apply(_ header: SavedGroupHeader) {
        groups[header.id] = groups[header.id].map { $0.merged(with: header) } ?? header
    }

    /// Takes in one tab record, as received.
    package mutating func apply(_ tab: SavedGroupTab) {
        tabs[tab.id] = tabs[tab.id].map { $0.merged(with: tab) } ?? tab
    }

    /// The groups that exist, by id, each with its present tabs in order (position, then tab id).
    /// A deleted group shows nothing, whatever its fields and tabs were written after the delete;
    /// a reopen (a newer write of its presence) shows it again with all of them.
    package var visible: [String: VisibleSavedGroup] {
        var result: [String: VisibleSavedGroup] = [:]
        for header in groups.values where header.presence.value == .present {
            result[header.id] = VisibleSavedGroup(
                id: header.id, title: header.title.value, color: header.color.value, tabs: [])
        }
        for tab in tabs.values where tab.presence.value == .present {
            result[tab.group.value]?.tabs.append(tab)
        }
        for id in result.keys {
            result[id]?.tabs.sort { ($0.position.value, $0.id) < ($1.position.value, $1.id) }
        }
        return result
    }
}

/// A saved group as a device shows it.
package struct VisibleSavedGroup: Hashable, Sendable {
    /// The group's id.
    package var id: String
    /// Its title.
    package var title: String
    /// Its colour's name.
    package var color: String
    /// Its tabs, in order.
    package var tabs: [SavedGroupTab]
}
