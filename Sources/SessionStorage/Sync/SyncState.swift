import Foundation

/// Where this store's sync stands, as `sync_state` and `sync_outbox` hold it.
public struct SyncState: Sendable, Hashable {
    /// Whether sync is on: changes are marked in the outbox.
    public var isEnabled: Bool
    /// The account this device belongs to (32 hex digits).
    public var accountID: String?
    /// This device's id.
    public var deviceID: String?
    /// This device's name, as other devices show it.
    public var deviceName: String
    /// `desktop`, `phone`, `tablet` or `unknown`.
    public var formFactor: String
    /// The server last synced with.
    public var serverURL: String?
    /// The version the next uploaded record takes.
    package var nextVersion: Int64
    /// The server's sequence number this device has read up to (SPI: the `Server/` package's
    /// end-to-end tests check it).
    @_spi(SyncInternals) public var cursor: Int64
    /// When a sync last completed.
    public var lastSyncAt: Date?
    /// What the last sync failed with, when it did.
    public var lastError: String?
    /// How many records wait in the outbox.
    public var pendingCount: Int
    // SPI, not `package`: the `Server/` package's end-to-end tests check it (`@_spi(SyncInternals) import`).
    /// Whether the rows may no longer match what the server holds (a snapshot was
    /// restored, an import replaced the content, the device was paired again): the
    /// next sync sends every record and tombstones this device's records that are gone.
    @_spi(SyncInternals) public var fullSyncNeeded: Bool
    /// Whether this device publishes its archived tabs (each as a tab record marked archived);
    /// off unless the app opts in with ``SyncStorage/setUploadsArchivedTabs(_:)``.
    public var uploadsArchivedTabs: Bool = false
}

/// One record marked in the outbox: a kind and a local id, at a generation.
package struct SyncOutboxEntry: Sendable, Hashable {
    /// The record's kind.
    package var kind: SyncRecordKind
    /// The local id: a tab's, group's or closed tab's UUID, or `device`.
    package var localID: String
    /// Moves on each time the record is marked again.
    package var generation: Int64

    /// Creates an entry.
    package init(kind: SyncRecordKind, localID: String, generation: Int64) {
        self.kind = kind
        self.localID = localID
        self.generation = generation
    }
}

/// A record to upload: what its rows hold now, or `nil` for a tombstone.
package struct SyncPendingRecord: Sendable, Hashable {
    /// The outbox entry it answers.
    package var entry: SyncOutboxEntry
    /// The content built from the current rows; `nil` when the record is gone (a tombstone).
    package var content: SyncRecordContent?
    /// When the record should expire on the server (closed tabs), in seconds since 1970.
    package var expiresAt: Int64?
}

/// A record of another device, opened.
package struct SyncReceivedRecord: Sendable, Hashable {
    /// The record's id on the server.
    package var recordID: String
    /// The device that owns it.
    package var deviceID: String
    /// The server's sequence number of its last upload.
    package var sequence: Int64
    /// The owning device's version counter at that upload.
    package var version: Int64
    /// When the server stored it.
    package var modifiedAt: Date
    /// What it holds, and its payload as received; `nil` for a tombstone.
    package var content: (SyncRecordContent, payload: String)?
    /// SHA-256 of its sealed bytes as lowercase hex; empty for an unsealed tombstone.
    package var digest: String
    /// Whether a tombstone is authenticated: sealed by its device, or made by the
    /// server for a device revoked with the account's signed statement. An
    /// unauthenticated one removes a record only when the device has been silent
    /// long enough for the server's sweep. Always `true` for a record with content.
    package var isAuthenticated: Bool

    /// Creates a received record.
    package init(
        recordID: String, deviceID: String, sequence: Int64, version: Int64, modifiedAt: Date,
        content: (SyncRecordContent, payload: String)?, digest: String = "", isAuthenticated: Bool = true
    ) {
        self.recordID = recordID
        self.deviceID = deviceID
        self.sequence = sequence
        self.version = version
        self.modifiedAt = modifiedAt
        self.content = content
        self.digest = digest
        self.isAuthenticated = isAuthenticated
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.recordID == rhs.recordID && lhs.deviceID == rhs.deviceID && lhs.sequence == rhs.sequence
            && lhs.version == rhs.version && lhs.modifiedAt == rhs.modifiedAt
            && lhs.content?.0 == rhs.content?.0 && lhs.content?.payload == rhs.content?.payload
            && lhs.digest == rhs.digest && lhs.isAuthenticated == rhs.isAuthenticated
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(recordID)
        hasher.combine(version)
    }
}

/// What applying a batch of received records did.
package struct SyncApplyResult: Sendable, Hashable {
    /// Records stored or replaced.
    package var applied = 0
    /// Records removed by tombstones.
    package var removed = 0
    /// Records skipped: this device's own, the version already held (a fetch
    /// again from 0), or an unauthenticated tombstone of a record not held.
    package var skipped = 0
    /// Records older than the newest version seen of them (or at it with other
    /// bytes): the server replayed them. Ignored.
    package var replayed: [String] = []
    /// Tombstones that nothing authenticates, of records held here: kept, not applied.
    package var forgedDeletions: [String] = []

    /// An empty result.
    package init() {}
}
