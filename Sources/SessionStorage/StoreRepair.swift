import SessionModel

/// One thing the store repaired or skipped while reading rows that break its
/// rules (a damaged page, a row an outside writer changed with `sqlite3`),
/// so that the damage cost one tab or one link instead of the whole window.
///
/// The store reads a browser strictly first; only when that fails does it read
/// row by row, keep what it can, and repair the rest by the tab-list rules
/// (<doc:TabListRules>). A repair made while writing is written back, so the
/// file passes `check` again; one made while only reading is reported again at
/// the next read. ``SessionDatabase/repairs()`` lists every repair since the
/// store was opened: log them.
public struct StoreRepair: Hashable, Sendable, CustomStringConvertible {
    /// What was done.
    public enum Kind: String, Hashable, Sendable {
        /// A tab's row could not be read (a malformed identifier or value): the tab was left out.
        case tabSkipped
        /// A pinned tab after an unpinned one (pinned tabs form a prefix): it was unpinned.
        case tabUnpinned
        /// A tab pinned and grouped, in a missing group, or cut off from its group's run: it left the group.
        case tabUngrouped
        /// A group with no tab, or whose row could not be read: it was dropped.
        case groupDropped
        /// An opener link to a tab not in the list: it was dropped.
        case openerDropped
        /// The active tab is not in the list: no tab is active.
        case activeTabCleared
        /// A tab's current page could not be read: the tab shows no page.
        case pageSkipped
    }

    /// What was done.
    public var kind: Kind
    /// The browser whose list was read.
    public var browser: BrowserID
    /// The tab or group concerned, as stored (it may be malformed), if any.
    public var subject: String?
    /// Why, in a few words.
    public var reason: String

    /// A repair of `kind` in `browser`.
    public init(kind: Kind, browser: BrowserID, subject: String? = nil, reason: String) {
        self.kind = kind
        self.browser = browser
        self.subject = subject
        self.reason = reason
    }

    /// One line: the kind, where, and why.
    public var description: String {
        "\(kind.rawValue) in browser \(browser)\(subject.map { " (\($0))" } ?? ""): \(reason)"
    }
}

/// The repairs made since a store was opened, shared by its repositories.
final class RepairLog: Sendable {
    private let repairs = Protected<[StoreRepair]>([])

    /// Records repairs not recorded before (a list only read is repaired again at each read).
    func record(_ new: [StoreRepair]) {
        guard !new.isEmpty else { return }
        repairs.withLock { repairs in
            for repair in new where !repairs.contains(repair) { repairs.append(repair) }
        }
    }

    var all: [StoreRepair] { repairs.withLock { $0 } }
}
