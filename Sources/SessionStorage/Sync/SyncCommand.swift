import Foundation

/// A command from one device of an account to another (docs/sync-protocol.md,
/// "Commands"). Sealed end to end like records: the server sees its target,
/// its size and its expiry, never its kind or content.
public enum SyncCommand: Sendable, Hashable {
    /// "Open this page as a new tab."
    case sendTab(SyncSendTab)
    /// "Close this tab of yours, if it still shows this page."
    case closeTab(SyncCloseTab)

    /// How long a command of each kind lives before its target stops applying it:
    /// 10 days for a sent tab, 48 hours for a close (a tab closed days later
    /// would surprise the user more than one left open).
    package var lifetime: TimeInterval {
        switch self {
        case .sendTab: 10 * 24 * 3600
        case .closeTab: 48 * 3600
        }
    }
}

/// The content of a `send_tab` command.
public struct SyncSendTab: Sendable, Hashable, Codable {
    /// The page to open.
    public var url: String
    /// Its title, as the sender saw it.
    public var title: String
    /// Its back and forward pages, optionally; ``current`` indexes them.
    public var navigations: [SyncedNavigation]?
    /// The index of the page to show in ``navigations``.
    public var current: Int?

    /// A sent tab on `url`, with its history when given.
    public init(url: String, title: String = "", navigations: [SyncedNavigation]? = nil, current: Int? = nil) {
        self.url = url
        self.title = title
        self.navigations = navigations
        self.current = current
    }
}

/// The content of a `close_tab` command.
public struct SyncCloseTab: Sendable, Hashable, Codable {
    /// The tab's record id, as the sender received it.
    public var recordID: String
    /// The tab's id on its device (inside the sealed payload only).
    public var tabID: String
    /// The URL the sender saw the tab on: the target closes the tab only if it
    /// still shows that page.
    public var url: String

    /// A close of the tab `tabID` (record `recordID`) seen on `url`.
    package init(recordID: String, tabID: String, url: String) {
        self.recordID = recordID
        self.tabID = tabID
        self.url = url
    }

    enum CodingKeys: String, CodingKey {
        case url
        case recordID = "record_id"
        case tabID = "tab_id"
    }
}

extension SyncCommand: Codable {
    private enum CodingKeys: String, CodingKey {
        case v, type, tab, close
    }

    /// `{"v":1,"type":"send_tab","tab":{…}}` or `{"v":1,"type":"close_tab","close":{…}}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .type) {
        case "send_tab": self = .sendTab(try container.decode(SyncSendTab.self, forKey: .tab))
        case "close_tab": self = .closeTab(try container.decode(SyncCloseTab.self, forKey: .close))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown command type \(other)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(syncPayloadVersion, forKey: .v)
        switch self {
        case .sendTab(let tab):
            try container.encode("send_tab", forKey: .type)
            try container.encode(tab, forKey: .tab)
        case .closeTab(let close):
            try container.encode("close_tab", forKey: .type)
            try container.encode(close, forKey: .close)
        }
    }
}

/// A command waiting to leave this device.
public struct SyncOutgoingCommand: Sendable, Hashable {
    /// The command's id (a lowercase UUID), also its idempotency key everywhere.
    public var id: String
    /// The device it is for.
    public var targetDeviceID: String
    /// What it does.
    public var command: SyncCommand
    /// When it was made.
    public var createdAt: Date
    /// The end of its undo window: it leaves no earlier.
    public var sendAfter: Date
    /// When its target stops applying it.
    public var expiresAt: Date

    /// A command with every value given.
    package init(
        id: String, targetDeviceID: String, command: SyncCommand, createdAt: Date, sendAfter: Date, expiresAt: Date
    ) {
        self.id = id
        self.targetDeviceID = targetDeviceID
        self.command = command
        self.createdAt = createdAt
        self.sendAfter = sendAfter
        self.expiresAt = expiresAt
    }
}

/// A queued command as stored: its payload is the command's JSON, which a
/// client seals and sends as it is (a newer binary's command included).
package struct SyncCommandEnvelope: Sendable, Hashable {
    /// The command's id.
    package var id: String
    /// The device it is for.
    package var targetDeviceID: String
    /// The command's JSON.
    package var payload: Data
    /// When it was made.
    package var createdAt: Date
    /// The end of its undo window.
    package var sendAfter: Date
    /// When its target stops applying it.
    package var expiresAt: Date
}
