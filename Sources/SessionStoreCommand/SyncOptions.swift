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

    /// The status for a sync error.
    static func code(for error: SyncError) -> Int32 {
        switch error {
        case .notPaired, .invalidKeys: newerDatabase
        case .invalidSeed: dataError
        case .unreachable, .rateLimited: temporaryFailure
        case .server, .tooLarge, .malformedResponse: protocolError
        }
    }
}
