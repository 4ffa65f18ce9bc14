import Foundation
import SessionModel

// The coding of the document's values that the synthesized one does not give:
// keys added after version 1 first shipped are optional, and absent when empty, so
// that a document without them reads as before and a store without them exports
// the same bytes as before.

extension SessionArchive {
    private enum CodingKeys: String, CodingKey {
        case format, version, browsers, closedEntries, archivedTabs, savedGroups
    }

    /// Decodes a document; `archived_tabs` and `saved_groups` may be absent (documents
    /// written before them, or of a store without any, have none).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            format: try container.decode(String.self, forKey: .format),
            version: try container.decode(Int.self, forKey: .version),
            browsers: try container.decode([Browser].self, forKey: .browsers),
            closedEntries: try container.decode([ClosedEntry].self, forKey: .closedEntries),
            archivedTabs: try container.decodeIfPresent([ArchivedTab].self, forKey: .archivedTabs) ?? [],
            savedGroups: try container.decodeIfPresent([SavedGroup].self, forKey: .savedGroups) ?? [])
    }

    /// Encodes a document; `archived_tabs` and `saved_groups` only when not empty.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(version, forKey: .version)
        try container.encode(browsers, forKey: .browsers)
        try container.encode(closedEntries, forKey: .closedEntries)
        if !archivedTabs.isEmpty { try container.encode(archivedTabs, forKey: .archivedTabs) }
        if !savedGroups.isEmpty { try container.encode(savedGroups, forKey: .savedGroups) }
    }
}

extension SessionArchive.Browser {
    private enum CodingKeys: String, CodingKey {
        case id, createdAt, lastActiveAt, activeTab, closedEntry, groups, splits, tabs
    }

    /// Decodes a browser; `splits` may be absent (documents written before splits have none).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(BrowserID.self, forKey: .id),
            createdAt: try container.decode(Date.self, forKey: .createdAt),
            lastActiveAt: try container.decode(Date.self, forKey: .lastActiveAt),
            activeTab: try container.decodeIfPresent(WebStateID.self, forKey: .activeTab),
            closedEntry: try container.decodeIfPresent(ClosedEntryID.self, forKey: .closedEntry),
            groups: try container.decode([SessionArchive.Group].self, forKey: .groups),
            splits: try container.decodeIfPresent([SessionArchive.Split].self, forKey: .splits) ?? [],
            tabs: try container.decode([SessionArchive.Tab].self, forKey: .tabs))
    }

    /// Encodes a browser; `splits` only when it has one.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastActiveAt, forKey: .lastActiveAt)
        try container.encodeIfPresent(activeTab, forKey: .activeTab)
        try container.encodeIfPresent(closedEntry, forKey: .closedEntry)
        try container.encode(groups, forKey: .groups)
        if !splits.isEmpty { try container.encode(splits, forKey: .splits) }
        try container.encode(tabs, forKey: .tabs)
    }
}

extension SessionArchive.Split {
    private enum CodingKeys: String, CodingKey {
        case id, ratio, layout
    }

    /// Decodes a split; an unknown `layout` is refused at its place (`$.browsers[0].splits[1].layout`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(TabSplitID.self, forKey: .id)
        let ratio = try container.decode(Double.self, forKey: .ratio)
        let text = try container.decode(String.self, forKey: .layout)
        guard let layout = TabSplitLayout(rawValue: text) else {
            let known = TabSplitLayout.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
            throw DecodingError.dataCorruptedError(
                forKey: .layout, in: container, debugDescription: "expected \(known), found \"\(text)\"")
        }
        self.init(id: id, ratio: ratio, layout: layout)
    }

    /// Encodes a split.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(ratio, forKey: .ratio)
        try container.encode(layout, forKey: .layout)
    }
}
