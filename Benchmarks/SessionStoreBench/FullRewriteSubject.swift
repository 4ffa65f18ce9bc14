import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The whole session as the full-rewrite design keeps it: one JSON document.
struct SessionDocument: Codable {
    struct Window: Codable {
        var id: String
        var activeIndex: Int?
        var tabs: [Tab]
    }

    struct Tab: Codable {
        var id: String
        var openerID: String?
        var openerNavigationIndex: Int?
        var isPinned: Bool
        var groupID: String?
        var createdAt: Date
        var lastActiveAt: Date
        var currentIndex: Int?
        var entries: [Entry]
    }

    struct Entry: Codable {
        var url: String
        var title: String
        var transition: String
        var referrerPolicy: String
        var userAgentType: String
        var timestamp: Date
    }

    var windows: [Window]

    /// One window of `tabCount` tabs with the pages of ``SessionContent``.
    static func seeded(tabCount: Int) -> SessionDocument {
        let now = Date()
        let tabs = (0..<tabCount).map { tab in
            Tab(
                id: UUID().uuidString.lowercased(), openerID: nil, openerNavigationIndex: nil, isPinned: false,
                groupID: nil, createdAt: now, lastActiveAt: now, currentIndex: SessionContent.historyLength - 1,
                entries: (0..<SessionContent.historyLength).map { entry in
                    Entry(
                        url: SessionContent.url(tab: tab, entry: entry), title: SessionContent.title(tab: tab, entry: entry),
                        transition: "link", referrerPolicy: "default", userAgentType: "automatic", timestamp: now)
                })
        }
        return SessionDocument(
            windows: [Window(id: UUID().uuidString.lowercased(), activeIndex: tabCount / 2, tabs: tabs)])
    }
}

/// The full-rewrite baseline (Firefox's session store, Firefox for iOS, Chrome for
/// iOS's legacy storage): every mutation re-encodes the whole session with
/// `JSONEncoder` and writes it atomically, to a temporary file renamed over the old one.
/// With `synchronous = FULL` the temporary file is also fsynced before the rename.
final class FullRewriteSubject: MutationSubject {
    private var document: SessionDocument
    private var closed: [SessionDocument.Tab] = []
    /// The session file.
    let path: String
    private let fsyncEachWrite: Bool
    private let encoder = JSONEncoder()

    var count: Int { document.windows[0].tabs.count }

    init(directory: String, tabCount: Int, fsyncEachWrite: Bool) throws {
        document = .seeded(tabCount: tabCount)
        path = directory + "/session.json"
        self.fsyncEachWrite = fsyncEachWrite
        try save()
    }

    /// Encodes and atomically replaces the file.
    private func save() throws {
        let data = try encoder.encode(RewritePayload(session: document, recentlyClosed: closed))
        let temporary = path + ".tmp"
        let descriptor = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw BenchError("cannot open \(temporary)") }
        var written = 0
        try data.withUnsafeBytes { buffer in
            while written < buffer.count {
                let result = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                guard result > 0 else { throw BenchError("cannot write \(temporary)") }
                written += result
            }
        }
        if fsyncEachWrite { fsync(descriptor) }
        Glibc.close(descriptor)
        guard Glibc.rename(temporary, path) == 0 else { throw BenchError("cannot rename \(temporary)") }
    }

    func insert(openerAt openerIndex: Int) throws {
        let opener = document.windows[0].tabs[openerIndex]
        let now = Date()
        document.windows[0].tabs.insert(
            SessionDocument.Tab(
                id: UUID().uuidString.lowercased(), openerID: opener.id, openerNavigationIndex: opener.currentIndex,
                isPinned: false, groupID: nil, createdAt: now, lastActiveAt: now, currentIndex: nil, entries: []),
            at: openerIndex + 1)
        try save()
    }

    func move(from: Int, to: Int) throws {
        document.windows[0].tabs.insert(document.windows[0].tabs.remove(at: from), at: to)
        try save()
    }

    func close(at index: Int) throws {
        closed.append(document.windows[0].tabs.remove(at: index))
        if closed.count > 25 { closed.removeFirst(closed.count - 25) }
        try save()
    }

    func navigate(at index: Int, iteration: Int) throws {
        var tab = document.windows[0].tabs[index]
        tab.entries.append(SessionDocument.Entry(
            url: SessionContent.navigationURL(iteration: iteration), title: SessionContent.navigationTitle(iteration: iteration),
            transition: "link", referrerPolicy: "default", userAgentType: "automatic", timestamp: Date()))
        tab.currentIndex = tab.entries.count - 1
        document.windows[0].tabs[index] = tab
        try save()
    }

    func activate(at index: Int) throws {
        document.windows[0].activeIndex = index
        document.windows[0].tabs[index].lastActiveAt = Date()
        try save()
    }

    /// The bench pins only while no other tab is pinned: a pinned tab goes first, an unpinned one last.
    func setPinned(_ pinned: Bool, at index: Int) throws {
        var tab = document.windows[0].tabs.remove(at: index)
        tab.isPinned = pinned
        document.windows[0].tabs.insert(tab, at: pinned ? 0 : document.windows[0].tabs.count)
        try save()
    }

    /// Reads and decodes the file, as the full-rewrite design restores a session.
    static func restore(path: String) throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let payload = try JSONDecoder().decode(RewritePayload.self, from: data)
        return payload.session.windows.reduce(0) { $0 + $1.tabs.count }
    }
}

/// What the full-rewrite file holds: the open session and the recently closed tabs.
struct RewritePayload: Codable {
    var session: SessionDocument
    var recentlyClosed: [SessionDocument.Tab]
}
