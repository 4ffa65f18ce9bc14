import Foundation
import GRDB
import SessionStore
import SessionSync

/// Saved groups synced across devices (issue 39): what one rename costs on the wire, whatever
/// the number of groups and tabs, beside what sending the whole saved-groups state would cost.
enum SavedGroupRename {
    struct Figure {
        var groups: Int
        var tabsPerGroup: Int
        /// Records the first upload sent, and its upload bodies' bytes.
        var firstRecords: Int
        /// From pairing a second device to every group shown there.
        var coldReceive: TimeInterval
        /// Whether the second device showed every group with every tab.
        var complete: Bool
        /// Records the rename's sync uploaded.
        var renameRecords: Int
        /// The rename's upload, both ways (`POST /v1/records`: request line, headers, body, answer).
        var renameUpload: Int
        /// Every request of the renaming device's `sync()`, both ways.
        var renameSync: Int
        /// The other device's `sync()` that received it, both ways.
        var received: Int
        /// Whether the other device showed the new title.
        var renamedThere: Bool
        /// Every saved-group record sealed and base64-encoded in one upload body: the rename's
        /// cost if the saved groups were one record, as a device's tabs are in Firefox.
        var wholeState: Int
    }

    static func measure(groups: Int, tabsPerGroup: Int, server: URL, directory: String) async throws -> Figure {
        let label = "\(groups)x\(tabsPerGroup)"
        let path = directory + "/saved-groups-\(label).sqlite"
        try BenchStore.make(atPath: path, tabs: groups * tabsPerGroup, seed: 11)
        // The groups are saved before the store pairs: what the first sync sends is the saved
        // groups (and the device record), not tombstones of tabs that never reached the server.
        var ids: [TabGroupID] = []
        do {
            let database = try await SessionDatabase.open(atPath: path)
            let tabs = SQLiteWebStateListRepository(database: database)
            let saved = SQLiteSavedTabGroupRepository(database: database)
            let window = try await SQLiteBrowserRepository(database: database).browsers()[0].id
            for index in 0..<groups {
                let group = try await tabs.createGroup(
                    in: window, at: Array(0..<tabsPerGroup), visualData: TabGroupVisualData(title: "Group \(index)", color: .blue))
                try await saved.saveAndClose(group, in: window)
                ids.append(group)
            }
            try await database.close()
        }
        let laptop = try BenchDevice(path: path, name: "Laptop", seed: nil, server: server)
        defer { laptop.close() }
        let saved = SQLiteSavedTabGroupRepository(database: laptop.database)
        let first = try await laptop.client.sync()

        let phone = try BenchDevice(
            path: directory + "/saved-groups-\(label)-phone.sqlite", name: "Phone", seed: laptop.credentials.seed,
            server: server)
        defer { phone.close() }
        let phoneGroups = SQLiteSavedTabGroupRepository(database: phone.database)
        let clock = Date()
        try await phone.client.sync()
        let coldReceive = Date().timeIntervalSince(clock)
        let shown = try await phoneGroups.savedGroups()
        let complete = shown.count == groups && shown.allSatisfy { $0.tabs.count == tabsPerGroup }

        // Each device's client over a transport that logs every request; one sync each first,
        // so that tokens and the server's info are behind them.
        let laptopLog = RequestLog(), phoneLog = RequestLog()
        let laptopClient = try client(of: laptop, server: server, transport: laptopLog)
        let phoneClient = try client(of: phone, server: server, transport: phoneLog)
        try await laptopClient.sync()
        try await phoneClient.sync()
        laptopLog.reset()
        phoneLog.reset()

        let renamed = ids[groups / 2]
        try await saved.update(renamed, visualData: TabGroupVisualData(title: "Renamed on the laptop", color: .green))
        let report = try await laptopClient.sync()
        try await phoneClient.sync()
        let there = try await phoneGroups.savedGroups().first { $0.id == renamed }
        return Figure(
            groups: groups, tabsPerGroup: tabsPerGroup, firstRecords: first.uploaded, coldReceive: coldReceive,
            complete: complete, renameRecords: report.uploaded,
            renameUpload: laptopLog.bytes(method: "POST", pathSuffix: "/v1/records"), renameSync: laptopLog.total,
            received: phoneLog.total, renamedThere: there?.visualData.title == "Renamed on the laptop",
            wholeState: try wholeState(ofStoreAt: path))
    }

    private static func client(of device: BenchDevice, server: URL, transport: any SyncTransport) throws -> SyncClient {
        try SyncClient(
            storage: device.sync, keyStore: device.keys, serverURL: server, transport: transport,
            applier: IncomingCommandApplier(
                sync: device.sync, browsers: device.browsers, tabs: device.tabs, histories: device.histories))
    }

    /// The bytes of one upload body holding every saved-group record of the store: each payload
    /// sealed (29 bytes more), in base64, in its JSON object.
    private static func wholeState(ofStoreAt path: String) throws -> Int {
        let queue = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        return try queue.read { db in
            let sizes = try Int.fetchAll(db, sql: "SELECT length(CAST(payload AS BLOB)) FROM sync_saved_group_records")
            let envelope = #"{"id":"00000000000000000000000000000000","version":1,"tombstone":false,"sealed":"","scope":"account"},"#
            return sizes.reduce(#"{"records":[]}"#.utf8.count) { total, payload in
                total + (payload + 29 + 2) / 3 * 4 + envelope.utf8.count
            }
        }
    }
}

/// The library's URLSession transport, logging each request's bytes both ways (as
/// ``WireCountingTransport`` counts them).
final class RequestLog: SyncTransport, @unchecked Sendable {
    private let counter = WireCountingTransport()
    private let lock = NSLock()
    private var entries: [(method: String, path: String, bytes: Int)] = []

    func send(_ request: SyncHTTPRequest) async throws -> SyncHTTPResponse {
        let before = counter.totals.bytes
        let response = try await counter.send(request)
        let bytes = counter.totals.bytes - before
        lock.withLock { entries.append((request.method, request.url.path, bytes)) }
        return response
    }

    /// Forgets what was logged.
    func reset() {
        lock.withLock { entries = [] }
    }

    /// Bytes of every request logged.
    var total: Int {
        lock.withLock { entries.reduce(0) { $0 + $1.bytes } }
    }

    /// Bytes of the requests of `method` whose path ends with `pathSuffix`.
    func bytes(method: String, pathSuffix: String) -> Int {
        lock.withLock { entries.filter { $0.method == method && $0.path.hasSuffix(pathSuffix) }.reduce(0) { $0 + $1.bytes } }
    }
}
