import Foundation

extension SessionArchive {
    /// One piece of a document, in the order an export streams it: the archived
    /// tabs, then each browser's own fields and its tabs, then the recently closed
    /// entries, then the saved groups (the order of the document's sorted keys).
    ///
    /// A document of any size is written (``Writer``) and read
    /// (``SessionDatabase/importArchive(from:replacing:)``) a part at a
    /// time, so neither side holds more than one browser's list of tab ids.
    public enum Part: Sendable, Hashable {
        /// An archived tab; all of them come before the browsers.
        case archivedTab(ArchivedTab)
        /// A browser's own fields; its ``Browser/tabs`` are empty here, and its
        /// `tabCount` tabs follow as ``tab(_:)`` parts.
        case browser(Browser, tabCount: Int)
        /// A tab of the browser last given.
        case tab(Tab)
        /// A recently closed entry; all of them come after the browsers.
        case closedEntry(ClosedEntry)
        /// A saved group with its tabs; all of them come after the closed entries.
        case savedGroup(SavedGroup)

        /// How many tabs the part writes (for a progress count).
        public var tabCount: Int {
            switch self {
            case .archivedTab, .tab: 1
            case .browser: 0
            case .closedEntry(let entry): entry.tabs.count
            case .savedGroup(let group): group.tabs.count
            }
        }
    }

    /// The document's parts, in order.
    public var parts: [Part] {
        var parts: [Part] = archivedTabs.map(Part.archivedTab)
        for browser in browsers {
            var fields = browser
            fields.tabs = []
            parts.append(.browser(fields, tabCount: browser.tabs.count))
            parts.append(contentsOf: browser.tabs.map(Part.tab))
        }
        parts.append(contentsOf: closedEntries.map(Part.closedEntry))
        parts.append(contentsOf: savedGroups.map(Part.savedGroup))
        return parts
    }

    /// How a document is laid out in text.
    public enum Layout: String, Sendable, CaseIterable {
        /// One JSON document (format ``SessionArchive/formatName``): what ``encoder()`` writes, byte for byte.
        case document
        /// JSON Lines (format ``SessionArchive/linesFormatName``): a header line, then
        /// one compact line per archived tab, browser (its fields), tab, closed entry and saved
        /// group, in ``Part`` order.
        case lines
    }

    /// The value of the `format` field of the first line of a ``Layout/lines`` document.
    public static let linesFormatName = "sessionstore-lines"
}

extension SessionArchive.Layout {
    /// How a ``lines`` document begins (after any white space): its header line as written.
    static let linesPrefix = Array("{\"format\":\"\(SessionArchive.linesFormatName)\"".utf8)

    /// The layout of a document that begins with `prefix` (its first 256 bytes are enough):
    /// ``lines`` when its first line is a lines header, else ``document``.
    ///
    /// The header is told by its content, not its spelling: `{"format": "sessionstore-lines",
    /// "version": 1}`, as Python's `json.dumps` writes it, is one too.
    public init(sniffing prefix: Data) {
        let start = prefix.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? prefix.endIndex
        let line = prefix[start...].prefix { $0 != UInt8(ascii: "\n") }
        if line.starts(with: Self.linesPrefix) {
            self = .lines
        } else if let header = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  header["format"] as? String == SessionArchive.linesFormatName
        {
            self = .lines
        } else {
            self = .document
        }
    }
}
