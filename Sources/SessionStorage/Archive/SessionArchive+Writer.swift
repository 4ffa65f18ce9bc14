import Foundation
import SessionModel

extension SessionArchive {
    /// Writes a document part by part, handing its text to `output` in pieces
    /// of about 64 KiB: an export of any size in bounded memory.
    ///
    /// The ``Layout/document`` text is byte for byte what ``encoder()`` makes
    /// of the whole document, followed by a newline.
    ///
    /// ```swift
    /// let writer = SessionArchive.Writer(layout: .lines) { try handle.write(contentsOf: $0) }
    /// try database.exportArchive { try writer.write($0) }
    /// try writer.finish()
    /// ```
    public final class Writer {
        private let layout: Layout
        private let output: (Data) throws -> Void
        private var json: JSONEmitter
        /// Where the writer is in the document, in ``Part`` order.
        private enum Phase: Int, Comparable {
            case start, archivedTabs, browsers, closedEntries, savedGroups, finished
            static func < (lhs: Phase, rhs: Phase) -> Bool { lhs.rawValue < rhs.rawValue }
        }
        private var phase = Phase.start
        /// Whether a browser's `tabs` array is open.
        private var inBrowser = false

        /// A writer of `layout` text that hands it to `output`.
        public init(layout: Layout, output: @escaping (Data) throws -> Void) {
            self.layout = layout
            self.output = output
            json = JSONEmitter(pretty: layout == .document)
        }

        /// Writes the next part. Parts come in ``Part`` order: archived tabs before every
        /// browser, closed entries after every browser, saved groups after every closed entry.
        ///
        /// - Throws: Whatever `output` throws.
        public func write(_ part: Part) throws {
            precondition(phase != .finished, "SessionArchive.Writer: a part after finish()")
            switch layout {
            case .document: writeInDocument(part)
            case .lines: writeLine(part)
            }
            if json.bytes.count >= 1 << 16 { try flush() }
        }

        /// Ends the document and hands over the rest of its text.
        ///
        /// - Throws: Whatever `output` throws.
        public func finish() throws {
            guard phase != .finished else { return }
            if layout == .document {
                if phase < .closedEntries { enter(.closedEntries) }
                if phase == .closedEntries {
                    json.endArray()
                    writeFormat()
                } else {
                    json.endArray()
                }
                json.key("version")
                json.integer(currentVersion)
                json.endObject()
                json.newline()
            } else if phase == .start {
                writeHeaderLine()
            }
            phase = .finished
            try flush()
        }

        private func flush() throws {
            let bytes = json.take()
            if !bytes.isEmpty { try output(Data(bytes)) }
        }

        // MARK: - Document

        /// Closes what is open and opens the arrays up to `target`'s, in the document's key order:
        /// `archived_tabs` (only when it has a part), `browsers`, `closed_entries`, `format`,
        /// `saved_groups` (only when it has a part).
        private func enter(_ target: Phase) {
            precondition(phase <= target, "SessionArchive.Writer: a part out of order")
            while phase < target {
                switch phase {
                case .start:
                    json.beginObject()
                    if target == .archivedTabs {
                        json.key("archived_tabs")
                        json.beginArray()
                        phase = .archivedTabs
                    } else {
                        beginArray("browsers", .browsers)
                    }
                case .archivedTabs:
                    json.endArray()
                    beginArray("browsers", .browsers)
                case .browsers:
                    closeBrowser()
                    json.endArray()
                    beginArray("closed_entries", .closedEntries)
                case .closedEntries:
                    json.endArray()
                    writeFormat()
                    beginArray("saved_groups", .savedGroups)
                case .savedGroups, .finished:
                    preconditionFailure("SessionArchive.Writer: a part out of order")
                }
            }
        }

        private func beginArray(_ key: String, _ next: Phase) {
            json.key(key)
            json.beginArray()
            phase = next
        }

        private func writeFormat() {
            json.key("format")
            json.string(formatName)
        }

        private func closeBrowser() {
            guard inBrowser else { return }
            json.endArray()
            json.endObject()
            inBrowser = false
        }

        private func writeInDocument(_ part: Part) {
            switch part {
            case .archivedTab(let tab):
                enter(.archivedTabs)
                json.element()
                json.archivedTab(tab)
            case .browser(let browser, _):
                precondition(phase <= .browsers, "SessionArchive.Writer: a browser after a closed entry")
                enter(.browsers)
                closeBrowser()
                json.element()
                json.beginObject()
                json.browserFields(browser)
                json.key("tabs")
                json.beginArray()
                inBrowser = true
            case .tab(let tab):
                precondition(inBrowser, "SessionArchive.Writer: a tab before any browser")
                json.element()
                json.tab(tab)
            case .closedEntry(let entry):
                enter(.closedEntries)
                json.element()
                json.closedEntry(entry)
            case .savedGroup(let group):
                enter(.savedGroups)
                json.element()
                json.savedGroup(group)
            }
        }

        // MARK: - Lines

        private func writeHeaderLine() {
            json.beginObject()
            json.key("format")
            json.string(linesFormatName)
            json.key("version")
            json.integer(currentVersion)
            json.endObject()
            json.newline()
            phase = .archivedTabs
        }

        private func writeLine(_ part: Part) {
            if phase == .start { writeHeaderLine() }
            json.beginObject()
            switch part {
            case .archivedTab(let tab):
                precondition(phase <= .archivedTabs, "SessionArchive.Writer: an archived tab after a browser")
                json.key("archived_tab")
                json.archivedTab(tab)
            case .browser(let browser, _):
                precondition(phase <= .browsers, "SessionArchive.Writer: a browser after a closed entry")
                phase = .browsers
                json.key("browser")
                json.beginObject()
                json.browserFields(browser)
                json.endObject()
                inBrowser = true
            case .tab(let tab):
                precondition(inBrowser, "SessionArchive.Writer: a tab before any browser")
                json.key("tab")
                json.tab(tab)
            case .closedEntry(let entry):
                precondition(phase <= .closedEntries, "SessionArchive.Writer: a closed entry after a saved group")
                phase = .closedEntries
                inBrowser = false
                json.key("closed_entry")
                json.closedEntry(entry)
            case .savedGroup(let group):
                phase = .savedGroups
                inBrowser = false
                json.key("saved_group")
                json.savedGroup(group)
            }
            json.endObject()
            json.newline()
        }
    }
}

// The document's objects, keys in sorted order (as `.sortedKeys` orders the snake_case keys).
extension JSONEmitter {
    /// A browser's fields but `tabs`, in an open object.
    mutating func browserFields(_ browser: SessionArchive.Browser) {
        if let active = browser.activeTab { key("active_tab"); string(active.uuidString) }
        if let closed = browser.closedEntry { key("closed_entry"); string(closed.uuidString) }
        key("created_at"); time(browser.createdAt)
        key("groups"); beginArray()
        for group in browser.groups { element(); self.group(group) }
        endArray()
        key("id"); string(browser.id.uuidString)
        key("last_active_at"); time(browser.lastActiveAt)
        if !browser.splits.isEmpty {
            key("splits"); beginArray()
            for split in browser.splits { element(); self.split(split) }
            endArray()
        }
    }

    mutating func group(_ group: SessionArchive.Group) {
        beginObject()
        key("collapsed"); bool(group.collapsed)
        key("color"); string(group.color.rawValue)
        key("id"); string(group.id.uuidString)
        key("title"); string(group.title)
        endObject()
    }

    mutating func split(_ split: SessionArchive.Split) {
        beginObject()
        key("id"); string(split.id.uuidString)
        key("layout"); string(split.layout.rawValue)
        key("ratio"); number(split.ratio)
        endObject()
    }

    mutating func tab(_ tab: SessionArchive.Tab) {
        beginObject()
        key("created_at"); time(tab.createdAt)
        if let state = tab.engineState { key("engine_state"); base64(state) }
        if let group = tab.group { key("group"); string(group.uuidString) }
        key("history"); beginObject()
        if let index = tab.history.currentIndex { key("current_index"); integer(index) }
        key("entries"); beginArray()
        for entry in tab.history.entries { element(); self.entry(entry) }
        endArray()
        endObject()
        key("id"); string(tab.id.uuidString)
        key("last_active_at"); time(tab.lastActiveAt)
        if let opener = tab.opener {
            key("opener"); beginObject()
            if let index = opener.navigationIndex { key("navigation_index"); integer(index) }
            key("tab"); string(opener.tab.uuidString)
            endObject()
        }
        key("pinned"); bool(tab.pinned)
        if let split = tab.split { key("split"); string(split.uuidString) }
        endObject()
    }

    mutating func entry(_ entry: SessionArchive.Entry) {
        beginObject()
        if let favicon = entry.faviconUrl { key("favicon_url"); string(favicon) }
        if let status = entry.httpStatus { key("http_status"); integer(status) }
        if let state = entry.pageState { key("page_state"); base64(state) }
        key("post"); bool(entry.post)
        key("referrer_policy"); string(entry.referrerPolicy.rawValue)
        if let referrer = entry.referrerUrl { key("referrer_url"); string(referrer) }
        key("timestamp"); time(entry.timestamp)
        key("title"); string(entry.title)
        key("transition"); string(entry.transition.rawValue)
        key("url"); string(entry.url)
        key("user_agent"); string(entry.userAgent.rawValue)
        if let virtual = entry.virtualUrl { key("virtual_url"); string(virtual) }
        endObject()
    }

    mutating func archivedTab(_ archived: SessionArchive.ArchivedTab) {
        beginObject()
        key("archived_at"); time(archived.archivedAt)
        if let browser = archived.formerBrowser { key("former_browser"); string(browser.uuidString) }
        if let group = archived.formerGroup {
            key("former_group"); beginObject()
            key("color"); string(group.color.rawValue)
            key("id"); string(group.id.uuidString)
            key("title"); string(group.title)
            endObject()
        }
        key("former_index"); integer(archived.formerIndex)
        if let opener = archived.formerOpener { key("former_opener"); string(opener.uuidString) }
        key("tab"); tab(archived.tab)
        endObject()
    }

    mutating func savedGroup(_ group: SessionArchive.SavedGroup) {
        beginObject()
        key("collapsed"); bool(group.collapsed)
        key("color"); string(group.color.rawValue)
        key("id"); string(group.id.uuidString)
        key("saved_at"); time(group.savedAt)
        if let source = group.sourceBrowser { key("source_browser"); string(source.uuidString) }
        key("tabs"); beginArray()
        for tab in group.tabs { element(); self.tab(tab) }
        endArray()
        key("title"); string(group.title)
        endObject()
    }

    mutating func closedEntry(_ entry: SessionArchive.ClosedEntry) {
        beginObject()
        if let browser = entry.browser { key("browser"); string(browser.uuidString) }
        key("closed_at"); time(entry.closedAt)
        if let group = entry.group { key("group"); self.group(group) }
        key("id"); string(entry.id.uuidString)
        key("kind"); string(entry.kind.rawValue)
        if let index = entry.tabIndex { key("tab_index"); integer(index) }
        key("tabs"); beginArray()
        for tab in entry.tabs { element(); self.tab(tab) }
        endArray()
        endObject()
    }

    private mutating func time(_ date: Date) { string(ArchiveTime.string(from: date)) }
}
