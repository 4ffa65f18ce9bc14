import ArgumentParser
import Foundation
import SessionStorage
import SessionSync

extension SessionStore {
    /// `sessionstore revoke DEVICE`: removes a device from the account.
    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke another device of the account (a lost or sold one).",
            discussion: """
                Its tokens stop working at once and every device drops its tabs. If it may still hold \
                the seed, move the remaining devices to a new account: `sessionstore pair --rotate`.
                """)

        @OptionGroup var options: StoreOptions
        @OptionGroup var connection: SyncConnectionOptions

        @Argument(help: "The device: its name, its id or a unique prefix of it (see `sessionstore devices`).")
        var device: String

        func run() throws {
            let database = try options.openForWriting(create: false)
            defer { try? database.close() }
            let storage = SyncStorage(database: database)
            // A whole id is taken as it is (a device this store has not synced yet may be revoked too).
            let id = UUID(uuidString: device) != nil ? device.lowercased() : try RemoteDeviceName.resolve(device, in: storage).id
            let client = try connection.client(database: database, path: options.path)
            try waitingFor { try await client.revoke(device: id) }
            _ = try waitingFor { try await client.sync() }
            print("revoked \(id)")
        }
    }

    /// `sessionstore delete-account`: deletes the account from the server.
    struct DeleteAccount: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete-account",
            abstract: "Delete the sync account and everything the server holds of it; this store keeps its tabs.")

        @OptionGroup var options: StoreOptions
        @OptionGroup var connection: SyncConnectionOptions

        @Flag(help: "Confirm: every device of the account stops syncing.")
        var yes = false

        func validate() throws {
            guard yes else { throw ValidationError("this deletes the account for every device; add --yes to confirm.") }
        }

        func run() throws {
            let database = try options.openForWriting(create: false)
            defer { try? database.close() }
            let client = try connection.client(database: database, path: options.path)
            try waitingFor { try await client.deleteAccount() }
            print("deleted the account from the server; sync is off in \(options.path)")
        }
    }
}
