import ArgumentParser
import Foundation
import SessionStorage
import SessionSync

extension SessionStore {
    /// `sessionstore pair`: makes this store a device of a sync account.
    struct Pair: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make the store a device of a sync account: a new account, or one whose seed another device shows.",
            discussion: """
                With no --seed, makes a new account and prints its seed: give it to `pair --seed=SEED` \
                on another device to join it. The seed and this device's key go to the key file \
                (mode 0600), never into the store. Nothing is sent until `sessionstore sync`.
                """)

        @OptionGroup var options: StoreOptions
        @OptionGroup var keyOptions: SyncKeyOptions

        // Unconditional: a base64url seed may begin with "-", and must not be taken for an option.
        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Join the account of this seed (base64, as `pair` printed it).", valueName: "seed"))
        var seed: String?

        @Option(help: ArgumentHelp("This device's name, as other devices show it (default: the host's name).", valueName: "name"))
        var name: String?

        @Option(name: .customLong("form-factor"), help: "desktop, phone, tablet or unknown.")
        var formFactor = "desktop"

        @Flag(name: .customLong("show-seed"), help: "Print the seed of the account the store is paired with.")
        var showSeed = false

        @Flag(help: ArgumentHelp(
            "Move the paired store to a new account (a new seed, printed), or to the one of --seed: after revoking a lost device, on one device, then with the new seed on the others."))
        var rotate = false

        /// The command line that pairs another device with `seed`, as printed: the seed
        /// joined to its option by `=`, so that one beginning with "-" (one in 64
        /// does: base64url) is never taken for an option, whatever parses the line.
        static func commandLine(_ arguments: [String], seed: String) -> String {
            (["sessionstore"] + arguments + ["--seed=\(seed)"]).joined(separator: " ")
        }

        func validate() throws {
            guard ["desktop", "phone", "tablet", "unknown"].contains(formFactor) else {
                throw ValidationError("--form-factor must be desktop, phone, tablet or unknown.")
            }
            if showSeed, seed != nil { throw ValidationError("--show-seed and --seed do not go together.") }
            if showSeed, rotate { throw ValidationError("--show-seed and --rotate do not go together.") }
        }

        func run() throws {
            let keyFile = keyOptions.keyFile(storePath: options.path)
            if rotate {
                let joining = try seed.map(SyncSeed.init(text:))
                let database = try options.openForWriting(create: false)
                defer { try? database.close() }
                let credentials = try SyncPairing.rotate(
                    storage: SyncStorage(database: database), keyStore: keyFile, seed: joining)
                print("account: \(credentials.account.accountID) (new)")
                print("device:  \(credentials.device.deviceID)")
                if joining == nil {
                    print("seed:    \(credentials.seed.text)")
                    print("Move the other devices with: \(Self.commandLine(["pair", "--rotate"], seed: credentials.seed.text))")
                }
                return
            }
            if let existing = try keyFile.load() {
                if showSeed {
                    print(existing.seed.text)
                    return
                }
                if let name, seed == nil {
                    let database = try options.openForWriting(create: false)
                    defer { try? database.close() }
                    try SyncStorage(database: database).rename(deviceName: name)
                    var renamed = existing
                    renamed.deviceName = name
                    try keyFile.save(renamed)
                    print("renamed: \(name) (the other devices see it after the next sync)")
                    return
                }
                if let seed, try SyncSeed(text: seed) != existing.seed {
                    throw InputFailure(
                        message: "\(keyFile.path) already holds the keys of account \(existing.account.accountID); "
                            + "remove it to pair the store with another account.",
                        status: ExitStatus.usage)
                }
                print("already paired: account \(existing.account.accountID), device \(existing.device.deviceID)")
                return
            }
            if showSeed {
                throw SyncError.notPaired(path: options.path)
            }
            let joining = try seed.map(SyncSeed.init(text:))
            let database = try options.openForWriting(create: true)
            defer { try? database.close() }
            let credentials = try SyncPairing.pair(
                storage: SyncStorage(database: database), keyStore: keyFile, seed: joining,
                deviceName: name ?? ProcessInfo.processInfo.hostName, formFactor: formFactor)
            print("account: \(credentials.account.accountID)")
            print("device:  \(credentials.device.deviceID)")
            print("keys:    \(keyFile.path)")
            if joining == nil {
                print("seed:    \(credentials.seed.text)")
                print("Pair another device with: \(Self.commandLine(["pair"], seed: credentials.seed.text))")
            }
        }
    }
}
