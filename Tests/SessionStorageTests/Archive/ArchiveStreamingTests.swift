import Foundation
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

/// Export and import a part at a time: the streamed text is the encoder's,
/// byte for byte; both layouts read back to the same store; a streamed
/// document gets the whole-document decoder's verdicts; times need no formatter.
@Suite struct ArchiveStreamingTests {
    // MARK: - Documents

    /// A random document: pinned, grouped and plain tabs, splits among them, openers,
    /// an active tab, closed tabs, groups and windows, and text that needs escaping. A `valid` one
    /// has no control characters the store refuses or changes in its titles.
    static func randomArchive(
        _ rng: inout SplitMix64, browsers: Int = 3, tabs: Int = 6, valid: Bool = true
    ) -> SessionArchive {
        let texts = [
            "", "plain", "quote \" and \\ backslash", "slash / and tab", "é 漢字 😀", "\u{2028}\u{2029}", "<b>&amp;</b>",
        ] + (valid ? [] : ["line\nbreak\r\t", "\u{0}\u{1}\u{1F}\u{7F}"])
        func text(_ rng: inout SplitMix64) -> String { texts.randomElement(using: &rng)! }
        func time(_ rng: inout SplitMix64) -> Date {
            let extremes: [Int64] = [-62_135_596_800_000, 253_402_300_799_999, 0]
            let milliseconds = Int.random(in: 0..<10, using: &rng) == 0
                ? extremes.randomElement(using: &rng)! : Int64.random(in: 0..<4_102_444_800_000, using: &rng)
            return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        }
        func entry(_ rng: inout SplitMix64) -> SessionArchive.Entry {
            let full = Bool.random(using: &rng)
            return SessionArchive.Entry(
                url: "https://example.com/\(Int.random(in: 0..<1000, using: &rng))?q=\(text(&rng).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")",
                virtualUrl: full ? "https://shown.example/" : nil, title: text(&rng),
                referrerUrl: full ? "https://referrer.example/a" : nil,
                referrerPolicy: ReferrerPolicy.allCases.randomElement(using: &rng)!,
                transition: NavigationTransition.allCases.randomElement(using: &rng)!, timestamp: time(&rng),
                httpStatus: full ? Int.random(in: 0...999, using: &rng) : nil, post: Bool.random(using: &rng),
                faviconUrl: full ? "https://example.com/favicon.ico" : nil,
                userAgent: UserAgentType.allCases.randomElement(using: &rng)!,
                pageState: full ? Data((0..<Int.random(in: 0..<40, using: &rng)).map { UInt8($0) }) : nil)
        }
        func tab(_ rng: inout SplitMix64) -> SessionArchive.Tab {
            let entries = (0..<Int.random(in: 0...4, using: &rng)).map { _ in entry(&rng) }
            return SessionArchive.Tab(
                createdAt: time(&rng), lastActiveAt: time(&rng),
                history: SessionArchive.History(
                    currentIndex: entries.isEmpty ? nil : Int.random(in: 0..<entries.count, using: &rng), entries: entries),
                engineState: Bool.random(using: &rng) ? Data("state \(Int.random(in: 0..<99, using: &rng))".utf8) : nil)
        }
        func group(_ rng: inout SplitMix64) -> SessionArchive.Group {
            SessionArchive.Group(title: text(&rng), color: TabGroupColor.allCases.randomElement(using: &rng)!,
                                 collapsed: Bool.random(using: &rng))
        }
        var result: [SessionArchive.Browser] = []
        var closed: [SessionArchive.ClosedEntry] = []
        for _ in 0..<browsers {
            var list: [SessionArchive.Tab] = []
            let pinned = Int.random(in: 0...2, using: &rng)
            let groups = (0..<Int.random(in: 0...2, using: &rng)).map { _ in group(&rng) }
            for index in 0..<Int.random(in: 0...tabs, using: &rng) {
                var next = tab(&rng)
                next.pinned = index < pinned
                if !list.isEmpty, Bool.random(using: &rng) {
                    next.opener = SessionArchive.Opener(
                        tab: list.randomElement(using: &rng)!.id,
                        navigationIndex: Bool.random(using: &rng) ? Int.random(in: 0..<5, using: &rng) : nil)
                }
                list.append(next)
            }
            // Groups take contiguous runs after the pinned tabs.
            var offset = min(pinned, list.count)
            for group in groups where offset < list.count {
                let run = Int.random(in: 1...max(1, list.count - offset), using: &rng)
                for index in offset..<min(list.count, offset + run) { list[index].group = group.id }
                offset += run
            }
            let usedGroups = groups.filter { group in list.contains { $0.group == group.id } }
            // Splits join neighbours alike in pinning and group, in list order.
            var splits: [SessionArchive.Split] = []
            var index = 0
            while index + 1 < list.count {
                if list[index].pinned == list[index + 1].pinned, list[index].group == list[index + 1].group,
                   Int.random(in: 0..<3, using: &rng) == 0
                {
                    let ratio = [0, 1, 0.5, Double.random(in: 0...1, using: &rng)].randomElement(using: &rng)!
                    let split = SessionArchive.Split(ratio: ratio, layout: TabSplitLayout.allCases.randomElement(using: &rng)!)
                    splits.append(split)
                    list[index].split = split.id
                    list[index + 1].split = split.id
                    index += 2
                } else {
                    index += 1
                }
            }
            var browser = SessionArchive.Browser(
                createdAt: time(&rng), lastActiveAt: time(&rng), activeTab: list.randomElement(using: &rng)?.id,
                groups: usedGroups, splits: splits, tabs: list)
            if Int.random(in: 0..<4, using: &rng) == 0 {
                let window = SessionArchive.ClosedEntry(kind: .window, closedAt: time(&rng), browser: browser.id)
                browser.closedEntry = window.id
                closed.append(window)
            }
            result.append(browser)
        }
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            var closedTab = tab(&rng)
            closedTab.pinned = Bool.random(using: &rng)
            if Bool.random(using: &rng) {
                closed.append(SessionArchive.ClosedEntry(
                    kind: .tab, closedAt: time(&rng), browser: result.randomElement(using: &rng)?.id,
                    tabIndex: Int.random(in: 0..<9, using: &rng), tabs: [closedTab]))
            } else {
                closedTab.pinned = false
                closed.append(SessionArchive.ClosedEntry(
                    kind: .group, closedAt: time(&rng), group: group(&rng), tabs: [closedTab, tab(&rng)]))
            }
        }
        // The store lists closed entries most recent first; so does its export.
        closed.sort { ($0.closedAt, $1.id.uuidString) > ($1.closedAt, $0.id.uuidString) }
        // Browsers as `ls` lists them: most recently active first, then most recently made, then by id.
        result.sort { ($1.lastActiveAt, $1.createdAt, $0.id.uuidString) < ($0.lastActiveAt, $0.createdAt, $1.id.uuidString) }
        return SessionArchive(browsers: result, closedEntries: closed)
    }

    static func text(_ archive: SessionArchive, layout: SessionArchive.Layout) throws -> Data {
        var text = Data()
        let writer = SessionArchive.Writer(layout: layout) { text.append($0) }
        for part in archive.parts { try writer.write(part) }
        try writer.finish()
        return text
    }

    /// A reader that hands over `data` in pieces of 1 to `largest` bytes.
    static func reader(_ data: Data, largest: Int, seed: UInt64 = 1) -> SessionArchive.Reader {
        var rng = SplitMix64(seed: seed)
        var offset = 0
        return SessionArchive.Reader {
            guard offset < data.count else { return nil }
            let count = min(data.count - offset, Int.random(in: 1...largest, using: &rng))
            defer { offset += count }
            return data.subdata(in: offset..<(offset + count))
        }
    }

    // MARK: - Writing

    @Test func documentLayout_isTheEncodersText_byteForByte() throws {
        var rng = SplitMix64(seed: 17)
        for round in 0..<300 {
            let archive = Self.randomArchive(&rng, browsers: round % 4, tabs: round % 9, valid: false)
            var expected = try SessionArchive.encoder().encode(archive)
            expected.append(UInt8(ascii: "\n"))
            let streamed = try Self.text(archive, layout: .document)
            try #require(streamed == expected, "round \(round):\n\(String(decoding: streamed, as: UTF8.self))")
        }
    }

    @Test func linesLayout_isOneCompactLinePerPart_afterAHeader() throws {
        var rng = SplitMix64(seed: 5)
        let archive = Self.randomArchive(&rng)
        let lines = String(decoding: try Self.text(archive, layout: .lines), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == #"{"format":"sessionstore-lines","version":1}"#)
        #expect(lines.last == "")
        #expect(lines.count == archive.parts.count + 2)
        for (line, part) in zip(lines.dropFirst(), archive.parts) {
            let key: String
            switch part {
            case .browser: key = "browser"
            case .tab: key = "tab"
            case .closedEntry: key = "closed_entry"
            case .archivedTab: key = "archived_tab"
            case .savedGroup: key = "saved_group"
            }
            #expect(line.hasPrefix("{\"\(key)\":{"), "\(line)")
        }
    }

    // MARK: - Reading

    @Test(arguments: SessionArchive.Layout.allCases)
    func streamedImport_ofEitherLayout_inAnyPieces_givesTheStoreTheDocument(_ layout: SessionArchive.Layout) throws {
        var rng = SplitMix64(seed: layout == .lines ? 3 : 4)
        for round in 0..<40 {
            let archive = Self.randomArchive(&rng, browsers: round % 4 + 1)
            let text = try Self.text(archive, layout: layout)
            let store = try TemporaryStore.inMemory()
            let counts = try store.database.importArchive(
                from: Self.reader(text, largest: round % 2 == 0 ? 7 : 4096, seed: UInt64(round)))
            #expect(counts.browsers == archive.browsers.count)
            #expect(counts.tabs == archive.browsers.reduce(0) { $0 + $1.tabs.count })
            #expect(counts.closedEntries == archive.closedEntries.count)
            let stored = try store.database.exportArchive()
            try #require(stored == archive, "round \(round)")
        }
    }

    @Test func streamedDocument_withItsKeysInAnotherOrder_readsTheSame() throws {
        var rng = SplitMix64(seed: 9)
        let archive = Self.randomArchive(&rng, browsers: 2)
        // Through JSONSerialization: keys in its own order, the browser's fields around its tabs.
        let object = try JSONSerialization.jsonObject(with: try SessionArchive.encoder().encode(archive)) as! [String: Any]
        var reordered = "{\"version\":1,\"format\":\"sessionstore\",\"closed_entries\":"
        reordered += String(decoding: try JSONSerialization.data(withJSONObject: object["closed_entries"]!), as: UTF8.self)
        reordered += ",\"browsers\":["
        for (index, browser) in (object["browsers"] as! [[String: Any]]).enumerated() {
            if index > 0 { reordered += "," }
            var fields = browser
            let tabs = fields.removeValue(forKey: "tabs")!
            let id = fields.removeValue(forKey: "id")!
            reordered += "{\"tabs\":" + String(decoding: try JSONSerialization.data(withJSONObject: tabs), as: UTF8.self)
            for (key, value) in fields {
                reordered += ",\"\(key)\":" + String(decoding: try JSONSerialization.data(withJSONObject: value, options: .fragmentsAllowed), as: UTF8.self)
            }
            reordered += ",\"id\":\"\(id)\",\"unknown\":[{\"x\":[1,2,{}]}]}"
        }
        reordered += "]}"
        let store = try TemporaryStore.inMemory()
        try store.database.importArchive(from: Self.reader(Data(reordered.utf8), largest: 11))
        #expect(try store.database.exportArchive() == archive)
    }

    /// The demo-like document mutated as the fuzz suite does: a streamed import
    /// accepts exactly what decoding the whole document and checking it accepts,
    /// and a refused one leaves the store as it was.
    @Test func streamedImport_acceptsExactlyWhatTheWholeDocumentDecoderAccepts() throws {
        var rng = SplitMix64(seed: 21)
        let original = try SessionArchive.encoder().encode(Self.randomArchive(&rng, browsers: 2, tabs: 4))
        let store = try TemporaryStore.inMemory()
        var accepted = 0
        for index in 0..<1_000 {
            let document = DocumentMutation.mutate(original, using: &rng)
            let whole: Bool
            var verdict = "accepted"
            do {
                try SessionArchive.decode(from: document).check()
                whole = true
            } catch {
                whole = false
                verdict = "\(error)"
            }
            let before = try store.database.exportArchive()
            let streamed: Bool
            do {
                try store.database.importArchive(from: Self.reader(document, largest: 64, seed: UInt64(index)), replacing: true)
                streamed = true
            } catch let error as StorageError {
                guard case .invalidArchive = error else {
                    Issue.record("document \(index): \(error)")
                    continue
                }
                streamed = false
                #expect(try store.database.exportArchive() == before, "document \(index): a refused import changed the store")
            }
            try #require(whole == streamed, "document \(index): whole \(verdict), streamed \(streamed):\n\(String(decoding: document, as: UTF8.self))")
            if streamed { accepted += 1 }
        }
        #expect(accepted > 0)
    }

    @Test func streamedLines_badLine_isNamedByItsNumber_andChangesNothing() throws {
        var rng = SplitMix64(seed: 2)
        let archive = Self.randomArchive(&rng, browsers: 1, tabs: 3)
        var lines = String(decoding: try Self.text(archive, layout: .lines), as: UTF8.self).split(separator: "\n").map(String.init)
        lines[2] = #"{"tab":{"id":"not an id"}}"#
        let store = try TemporaryStore.inMemory()
        #expect {
            try store.database.importArchive(from: SessionArchive.Reader(data: Data(lines.joined(separator: "\n").utf8)))
        } throws: { error in
            guard case .invalidArchive(let location, _) = error as? StorageError else { return false }
            return location.hasPrefix("line 3")
        }
        #expect(try store.database.exportArchive().browsers.isEmpty)
    }

    // MARK: - Times

    /// Document times are read and written without a formatter, as ICU's
    /// formatter reads and writes them (from 1583, where its calendar is Gregorian).
    @Test func archiveTime_agreesWithAFormatter_andRefusesWhatItRefuses() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
        var rng = SplitMix64(seed: 11)
        let lowest: Int64 = -12_212_553_600_000  // 1583-01-01
        let highest: Int64 = 253_402_300_799_999  // 9999-12-31 23:59:59.999
        for _ in 0..<5_000 {
            let date = Date(timeIntervalSince1970: Double(Int64.random(in: lowest...highest, using: &rng)) / 1000)
            let text = ArchiveTime.string(from: date)
            try #require(text == formatter.string(from: date))
            try #require(ArchiveTime.date(from: text) == formatter.date(from: text))
        }
        for bad in ["2026-02-30T00:00:00.000Z", "2026-01-01T24:00:00.000Z", "2026-01-01 00:00:00.000Z",
                    "2026-01-01T00:00:00.000", "2026-01-01T00:00:00Z", "0000-01-01T00:00:00.000Z", "+026-01-01T00:00:00.000Z"] {
            #expect(ArchiveTime.date(from: bad) == nil, "\(bad)")
        }
    }
}
