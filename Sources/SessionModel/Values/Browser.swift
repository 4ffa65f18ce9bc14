import Foundation

/// A browser window as the store keeps it: the owner of one tab list.
public struct Browser: Hashable, Sendable, Identifiable {
    /// The browser's identifier.
    public var id: BrowserID
    /// When the browser was created.
    public var createdAt: Date
    /// When the browser was last made active (windows are listed most recent first).
    public var lastActiveAt: Date
    /// Whether the browser is off the record: kept in memory, never on disk.
    public var isOffTheRecord: Bool

    /// Creates a browser value.
    public init(id: BrowserID = BrowserID(), createdAt: Date = Date(), lastActiveAt: Date? = nil, isOffTheRecord: Bool = false) {
        self.id = id
        self.createdAt = createdAt
        self.lastActiveAt = lastActiveAt ?? createdAt
        self.isOffTheRecord = isOffTheRecord
    }
}
