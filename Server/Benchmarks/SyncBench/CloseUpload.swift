import Foundation
import GRDB
import SessionStore
import SessionSync

/// What closing one tab uploads: its records, by kind, and their bytes.
enum CloseUpload {
    /// What one close uploaded: the kinds of the records the outbox held, and the upload's body.
    struct Upload {
        var kinds: [String]
        var bytes: Int
        var uploads: Int
    }

    /// Closes the first tab of `device`'s first window and syncs, with recently
    /// closed empty (`first`), then again once it is full, where each close prunes
    /// the oldest entry (`full`).
    static func measure(device: BenchDevice) async throws -> (first: Upload, full: Upload) {
        let browser = try await device.browsers.browsers()[0].id
        try await device.client.sync()
        let first = try await closing(device: device, browser: browser)
        for _ in 0..<device.database.configuration.maximumClosedEntries {
            try await device.tabs.close(in: browser, at: 0)
        }
        try await device.client.sync()
        let full = try await closing(device: device, browser: browser)
        return (first, full)
    }

    private static func closing(device: BenchDevice, browser: BrowserID) async throws -> Upload {
        try await device.tabs.close(in: browser, at: 0)
        let kinds = try outbox(ofStoreAt: device.path)
        let before = device.transport.totals
        try await device.client.sync()
        let after = device.transport.totals
        return Upload(kinds: kinds, bytes: after.bytes - before.bytes, uploads: after.requests - before.requests)
    }

    /// The kinds of the records the outbox of the store at `path` holds, read with plain SQL.
    private static func outbox(ofStoreAt path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        return try queue.read { db in
            try String.fetchAll(db, sql: "SELECT kind FROM sync_outbox ORDER BY kind")
        }
    }
}
