import Foundation
import SessionModel
import SessionStorage

/// A real store for tests: a SQLite file in a fresh temporary directory, or an
/// in-memory database, with its repositories. Removed when released.
public final class TemporaryStore {
    /// Where the file lives, for on-disk stores.
    public let directory: TemporaryDirectory?
    /// The file's path, or `nil` in memory.
    public var path: String? { directory?.file("store.sqlite") }
    /// The open database.
    public private(set) var database: SessionDatabase
    /// Its browser repository.
    public private(set) var browsers: SQLiteBrowserRepository
    /// Its tab-list repository.
    public private(set) var tabs: SQLiteWebStateListRepository
    /// Its navigation history repository.
    public private(set) var histories: SQLiteNavigationHistoryRepository

    private init(directory: TemporaryDirectory?, database: SessionDatabase) {
        self.directory = directory
        self.database = database
        browsers = SQLiteBrowserRepository(database: database)
        tabs = SQLiteWebStateListRepository(database: database)
        histories = SQLiteNavigationHistoryRepository(database: database)
    }

    deinit {
        try? database.close()
        directory?.remove()
    }

    /// A store in a file of a new temporary directory.
    public static func onDisk(configuration: SessionDatabase.Configuration = .init()) throws -> TemporaryStore {
        let directory = try TemporaryDirectory()
        let path = directory.file("store.sqlite")
        guard let older = olderBinary(configuration) else {
            return TemporaryStore(directory: directory, database: try SessionDatabase.open(atPath: path, configuration: configuration))
        }
        // The newest store, used from here on by an older binary.
        try SessionDatabase.open(atPath: path, configuration: configuration).close()
        return TemporaryStore(directory: directory, database: try SessionDatabase.open(atPath: path, configuration: older))
    }

    /// With `SESSIONSTORE_TEST_KNOWN_MIGRATIONS=N` in the environment, `configuration` as
    /// a binary that knows only the first N migrations: on-disk stores are made by the
    /// newest binary, then opened (and reopened) by that older one, so that the repository
    /// suite runs as an app rolled back to an older release would. `nil` otherwise.
    static func olderBinary(_ configuration: SessionDatabase.Configuration) -> SessionDatabase.Configuration? {
        guard let text = ProcessInfo.processInfo.environment["SESSIONSTORE_TEST_KNOWN_MIGRATIONS"],
              let count = Int(text), configuration.knownMigrationCount == nil
        else { return nil }
        var older = configuration
        older.knownMigrationCount = count
        return older
    }

    /// A store in memory.
    public static func inMemory(configuration: SessionDatabase.Configuration = .init()) throws -> TemporaryStore {
        LockWitness.installIfAsked()
        return TemporaryStore(directory: nil, database: try SessionDatabase.inMemory(configuration: configuration))
    }

    /// Both kinds, for tests that run the same body on each.
    public enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        case inMemory, onDisk
        public var description: String { rawValue }
        /// Makes a store of this kind.
        public func make(configuration: SessionDatabase.Configuration = .init()) throws -> TemporaryStore {
            switch self {
            case .inMemory: try TemporaryStore.inMemory(configuration: configuration)
            case .onDisk: try TemporaryStore.onDisk(configuration: configuration)
            }
        }
    }

    /// Closes the file and opens it again with new repositories (fresh caches),
    /// as an app restarting would. In memory, does nothing.
    public func reopen() throws {
        guard let path else { return }
        try database.close()
        database = try SessionDatabase.open(atPath: path, configuration: database.configuration)
        browsers = SQLiteBrowserRepository(database: database)
        tabs = SQLiteWebStateListRepository(database: database)
        histories = SQLiteNavigationHistoryRepository(database: database)
    }

    /// Creates a browser holding the list `text` describes, through the repositories.
    ///
    /// - Returns: The browser and the notation that names its tabs.
    public func seed(
        _ text: String, openers: [String: String] = [:], navigationIndexes: [String: Int] = [:],
        openerNavigationIndexes: [String: Int] = [:], groups: [String: TabGroupVisualData] = [:],
        scope: UInt32 = 0
    ) throws -> (browser: BrowserID, notation: WebStateListNotation) {
        let (list, notation) = try WebStateListNotation.parse(
            text, openers: openers, navigationIndexes: navigationIndexes,
            openerNavigationIndexes: openerNavigationIndexes, groups: groups, scope: scope)
        let browser = try browsers.createBrowser().id
        try tabs.update(browser) { $0 = list }
        return (browser, notation)
    }

    /// The browser's list as notation.
    public func format(_ browser: BrowserID, _ notation: WebStateListNotation) throws -> String {
        notation.format(try tabs.webStateList(in: browser))
    }
}
