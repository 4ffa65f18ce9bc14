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
    public var nextVersion: Int64
    /// The server's sequence number this device has read up to.
    public var cursor: Int64
    /// When a sync last completed.
    public var lastSyncAt: Date?
    /// What the last sync failed with, when it did.
    public var lastError: String?
    /// How many records wait in the outbox.
    public var pendingCount: Int
    /// Whether the rows may no longer match what the server holds (a snapshot was
    /// restored, an import replaced the content, the device was paired again): the
    /// next sync sends every record and tombstones this device's records that are gone.
    public var fullSyncNeeded: Bool
}

/// One record marked in the outbox: a kind and a local id, at a generation.
public struct SyncOutboxEntry: Sendable, Hashable {
    /// The record's kind.
    public var kind: SyncRecordKind
    /// The local id: a tab's, group's or closed tab's UUID, or `device`.
    public var localID: String
    /// Moves on each time the record is marked again.
    public var generation: Int64

    /// Creates an entry.
    public init(kind: SyncRecordKind, localID: String, generation: Int64) {
        self.kind = kind
        self.localID = localID
        self.generation = generation
    }
}

/// A record to upload: what its rows hold now, or `nil` for a tombstone.
public struct SyncPendingRecord: Sendable, Hashable {
    /// The outbox entry it answers.
    public var entry: SyncOutboxEntry
    /// The content built from the current rows; `nil` when the record is gone (a tombstone).
    public var content: SyncRecordContent?
    /// When the record should expire on the server (closed tabs), in seconds since 1970.
    public var expiresAt: Int64?
}

/// A record of another device, opened.
public struct SyncReceivedRecord: Sendable, Hashable {
    /// The record's id on the server.
    public var recordID: String
    /// The device that owns it.
    public var deviceID: String
    /// The server's sequence number of its last upload.
    public var sequence: Int64
    /// The owning device's version counter at that upload.
    public var version: Int64
    /// When the server stored it.
    public var modifiedAt: Date
    /// What it holds, and its payload as received; `nil` for a tombstone.
    public var content: (SyncRecordContent, payload: String)?

    /// Creates a received record.
    public init(
        recordID: String, deviceID: String, sequence: Int64, version: Int64, modifiedAt: Date,
        content: (SyncRecordContent, payload: String)?
    ) {
        self.recordID = recordID
        self.deviceID = deviceID
        self.sequence = sequence
        self.version = version
        self.modifiedAt = modifiedAt
        self.content = content
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.recordID == rhs.recordID && lhs.deviceID == rhs.deviceID && lhs.sequence == rhs.sequence
            && lhs.version == rhs.version && lhs.modifiedAt == rhs.modifiedAt
            && lhs.content?.0 == rhs.content?.0 && lhs.content?.payload == rhs.content?.payload
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(recordID)
        hasher.combine(version)
    }
}

/// What applying a batch of received records did.
public struct SyncApplyResult: Sendable, Hashable {
    /// Records stored or replaced.
    public var applied = 0
    /// Records removed by tombstones.
    public var removed = 0
    /// Records skipped: this device's own, or no newer than the one held.
    public var skipped = 0

    /// An empty result.
    public init() {}
}
