import Foundation
import GRDB
import SessionStore
import SessionSync

/// A device of the bench: a store, its key file, and the library's client over a counting transport.
final class BenchDevice: @unchecked Sendable {
    let path: String
    let database: SessionDatabase
    let sync: SyncStorage
    let keys: SyncKeyFile
    let credentials: SyncCredentials
    let transport = CountingTransport()
    let client: SyncClient
    let tabs: SQLiteWebStateListRepository
    let histories: SQLiteNavigationHistoryRepository
    let browsers: SQLiteBrowserRepository

    /// A device of the store at `path`, with the client's default configuration, or with a
    /// fixed `debounce` before every upload (1 s: the default of earlier versions).
    init(path: String, name: String, seed: SyncSeed?, server: URL, debounce: Duration? = nil) throws {
        self.path = path
        database = try SessionDatabase.open(atPath: path)
        sync = SyncStorage(database: database)
        keys = SyncKeyFile(besideStoreAt: path)
        // A device paired before (a restarted child) keeps its keys and its outbox.
        credentials = try keys.load() ?? SyncPairing.pair(storage: sync, keyStore: keys, seed: seed, deviceName: name)
        var configuration = SyncClient.Configuration()
        if let debounce { configuration.debounce = debounce }
        configuration.longPollSeconds = 20
        tabs = SQLiteWebStateListRepository(database: database)
        histories = SQLiteNavigationHistoryRepository(database: database)
        browsers = SQLiteBrowserRepository(database: database)
        client = try SyncClient(
            storage: sync, keyStore: keys, serverURL: server, transport: transport, configuration: configuration,
            applier: IncomingCommandApplier(sync: sync, browsers: browsers, tabs: tabs, histories: histories))
    }

    func close() {
        try? database.close()
    }

    /// Every open tab's id and current URL, read with plain SQL.
    func openTabs() throws -> [String: String] {
        let queue = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        return try queue.read { db in
            var tabs: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT tab_id, url FROM open_tabs WHERE url IS NOT NULL") {
                tabs[row[0]] = row[1]
            }
            return tabs
        }
    }

    /// The other devices' open tabs: each tab id with its URL, and how many times each tab id appears.
    func remoteTabs() throws -> (urls: [String: String], duplicates: Int) {
        var urls: [String: String] = [:]
        var duplicates = 0
        for device in try sync.remoteDevices() {
            for window in device.windows {
                for tab in window.tabs {
                    if urls[tab.tabID] != nil { duplicates += 1 }
                    urls[tab.tabID] = tab.url
                }
            }
        }
        return (urls, duplicates)
    }
}
