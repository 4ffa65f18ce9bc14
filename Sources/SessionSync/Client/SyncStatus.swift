import Foundation

/// Where a device's sync stands, as values an app can show.
public struct SyncStatus: Sendable, Hashable {
    /// When a sync last completed.
    public var lastSyncAt: Date?
    /// Records waiting to be uploaded.
    public var pendingCount: Int
    /// What the last sync failed with; `nil` after a success.
    public var lastError: SyncError?
    /// Whether a sync is running now.
    public var isSyncing: Bool

    /// Creates a status.
    public init(lastSyncAt: Date? = nil, pendingCount: Int = 0, lastError: SyncError? = nil, isSyncing: Bool = false) {
        self.lastSyncAt = lastSyncAt
        self.pendingCount = pendingCount
        self.lastError = lastError
        self.isSyncing = isSyncing
    }
}

/// What one sync did.
public struct SyncReport: Sendable, Hashable {
    /// Records uploaded (tombstones included).
    public var uploaded = 0
    /// Bytes of sealed records uploaded.
    public var uploadedBytes = 0
    /// Other devices' records stored or replaced.
    public var applied = 0
    /// Other devices' records removed by tombstones.
    public var removed = 0
    /// Records skipped: this device's own, a version already held (a fetch again
    /// from 0), or a tombstone of a record never seen here.
    public var skipped = 0
    /// Records that did not open (tampered, or sealed with other keys): skipped, nothing stored.
    public var rejected: [String] = []
    /// Records older than the newest version this device has seen of them, or at
    /// that version with other bytes: the server replayed them. Ignored.
    public var replayed: [String] = []
    /// Deletions nothing authenticates, of records this device holds: neither
    /// sealed by their device, nor made by the server for a device revoked with
    /// the account's signed statement, nor of a device silent for the server's
    /// sweep. The records are kept.
    public var forgedDeletions: [String] = []

    /// Whether the server sent something it cannot have been given: ``rejected``,
    /// ``replayed`` or ``forgedDeletions`` is not empty.
    public var foundTampering: Bool {
        !rejected.isEmpty || !replayed.isEmpty || !forgedDeletions.isEmpty
    }
    /// The server's cursor read up to.
    public var cursor: Int64 = 0
    /// Commands sent to other devices.
    public var commandsSent = 0
    /// Commands from other devices applied here (or found done already).
    public var commandsApplied = 0
    /// Commands that did not open: acknowledged and dropped.
    public var commandsRejected = 0

    /// An empty report.
    public init() {}
}
