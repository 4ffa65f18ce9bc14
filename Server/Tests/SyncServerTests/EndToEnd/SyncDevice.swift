import Foundation
import SessionStore
import SessionSync

/// One device of an end-to-end test: a real session store in a temporary
/// directory, its repositories, its key file beside it, and a `SyncClient` of
/// the library talking to the real server.
final class SyncDevice: @unchecked Sendable {
    let directory: URL
    let database: SessionDatabase
    let sync: SyncStorage
    let browsers: SQLiteBrowserRepository
    let tabs: SQLiteWebStateListRepository
    let histories: SQLiteNavigationHistoryRepository
    let savedGroups: SQLiteSavedTabGroupRepository
    let keys: SyncKeyFile
    let credentials: SyncCredentials
    let client: SyncClient

    var path: String { directory.appendingPathComponent("store.sqlite").path }

    /// A device named `name` in the account of `seed` (a new account when `nil`), whose clock
    /// is `skew` seconds off.
    init(
        name: String, seed: SyncSeed? = nil, server: URL, configuration: SyncClient.Configuration = .init(),
        transport: any SyncTransport = URLSessionSyncTransport(), skew: TimeInterval = 0
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = try SessionDatabase.open(atPath: directory.appendingPathComponent("store.sqlite").path)
        sync = SyncStorage(database: database)
        browsers = SQLiteBrowserRepository(database: database)
        tabs = SQLiteWebStateListRepository(database: database)
        histories = SQLiteNavigationHistoryRepository(database: database)
        savedGroups = SQLiteSavedTabGroupRepository(database: database)
        keys = SyncKeyFile(besideStoreAt: directory.appendingPathComponent("store.sqlite").path)
        credentials = try SyncPairing.pair(storage: sync, keyStore: keys, seed: seed, deviceName: name)
        self.skew = skew
        client = try SyncClient(
            storage: sync, keyStore: keys, serverURL: server, transport: transport, configuration: configuration,
            applier: IncomingCommandApplier(sync: sync, browsers: browsers, tabs: tabs, histories: histories),
            clock: { Date().addingTimeInterval(skew) })
    }

    /// How far this device's clock is off, in seconds.
    let skew: TimeInterval

    /// Another client of this store and its keys, as the device's next launch would make
    /// (perhaps with another URL of the server).
    func nextLaunch(server: URL) throws -> SyncClient {
        let skew = self.skew
        return try SyncClient(
            storage: sync, keyStore: keys, serverURL: server,
            applier: IncomingCommandApplier(sync: sync, browsers: browsers, tabs: tabs, histories: histories),
            clock: { Date().addingTimeInterval(skew) })
    }

    deinit {
        try? database.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A new window with one tab per URL, each with its page's title.
    @discardableResult
    func window(_ pages: [(title: String, url: String)]) throws -> (BrowserID, [WebStateID]) {
        let browser = try browsers.createBrowser().id
        var ids: [WebStateID] = []
        for page in pages {
            let tab = WebState()
            try tabs.insert(tab, in: browser, params: .automatic().activate(), navigatingTo: NavigationItem(url: page.url, title: page.title))
            ids.append(tab.id)
        }
        return (browser, ids)
    }

    /// Every open tab's URL, window after window.
    func openURLs() throws -> [String] {
        try browsers.browsers().flatMap { browser in
            let snapshot = try tabs.snapshot(of: browser.id)
            return (0..<snapshot.list.count).map { snapshot.pages[snapshot.list.id(at: $0)]?.url ?? "" }
        }
    }

    /// The other devices' open tabs' URLs, by device name, in order.
    func remoteURLs() throws -> [String: [String]] {
        var urls: [String: [String]] = [:]
        for device in try sync.remoteDevices() {
            urls[device.name] = device.windows.flatMap { $0.tabs.map(\.url) }
        }
        return urls
    }
}

/// Waits until `condition` holds, checking every 20 ms, for at most `seconds`.
func eventually(_ seconds: Double = 15, _ condition: () throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return try condition()
}
