import ArgumentParser
import Foundation
import SessionStorage
import SessionModel
import SessionSync

/// Where a store's sync keys are kept: `--keys`, else `<store>.sync-keys`.
struct SyncKeyOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The file holding this device's sync keys, mode 0600 (default: the store's path + .sync-keys).",
        valueName: "path"))
    var keys: String?

    func keyFile(storePath: String) -> SyncKeyFile {
        keys.map { SyncKeyFile(path: $0) } ?? SyncKeyFile(besideStoreAt: storePath)
    }
}

/// The server to sync with and the keys to sync under, and the client they make.
struct SyncConnectionOptions: ParsableArguments {
    @OptionGroup var keyOptions: SyncKeyOptions

    @Option(help: ArgumentHelp(
        "The server's URL (default: $SESSIONSTORE_SYNC_SERVER, else the one last synced with).", valueName: "url"))
    var server: String?

    /// A client of the store at `path`, which applies commands from other
    /// devices through the store's repositories. Commands leave without an undo
    /// window: a command line has nothing to undo with.
    func client(database: SessionDatabase, path: String) throws -> SyncClient {
        let storage = SyncStorage(database: database)
        let remembered = try storage.state().serverURL
        let given = server ?? ProcessInfo.processInfo.environment["SESSIONSTORE_SYNC_SERVER"] ?? remembered
        guard let given, let url = URL(string: given), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("--server needs an http or https URL (no server was synced with before).")
        }
        var configuration = SyncClient.Configuration()
        configuration.undoWindow = .zero
        return try SyncClient(
            storage: storage, keyStore: keyOptions.keyFile(storePath: path), serverURL: url,
            configuration: configuration,
            applier: IncomingCommandApplier(
                sync: storage, browsers: SQLiteBrowserRepository(database: database),
                tabs: SQLiteWebStateListRepository(database: database),
                histories: SQLiteNavigationHistoryRepository(database: database)))
    }
}

/// Runs async work from a synchronous command and waits for it.
func waitingFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let result = Protected<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            let value = try await work()
            result.withLock { $0 = .success(value) }
        } catch {
            result.withLock { $0 = .failure(error) }
        }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
}

extension ExitStatus {
    /// The server answered outside the protocol, or refused (EX_PROTOCOL).
    static let protocolError: Int32 = 76
    /// The account this device joined is gone from the server, or the server was restored
    /// from an older backup (EX_NOUSER: the addressee is unknown).
    static let accountGone: Int32 = 67

    /// The status for a sync error.
    static func code(for error: SyncError) -> Int32 {
        switch error {
        case .notPaired, .invalidKeys: newerDatabase
        case .invalidSeed: dataError
        case .unreachable, .rateLimited, .quotaExceeded, .cursorExpired: temporaryFailure
        case .server, .tooLarge, .malformedResponse: protocolError
        case .accountDeleted, .accountRestored: accountGone
        }
    }
}
