import ArgumentParser
import Foundation
import SessionStorage
import SessionSync

extension SessionStore {
    /// `sessionstore send URL --to DEVICE`: opens a page on another device.
    struct Send: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open a page as a new tab on another device of the account.",
            discussion: """
                The command is sealed, sent through the sync server, and opens on the device as soon as \
                it is online (within 10 days; after that it expires). DEVICE is a device's name or id, as \
                `sessionstore devices` lists them.
                """)

        @OptionGroup var options: StoreOptions
        @OptionGroup var connection: SyncConnectionOptions

        @Argument(help: "The page to open.")
        var url: String

        @Option(help: ArgumentHelp("The device to open it on: its name, its id or a unique prefix of it.", valueName: "device"))
        var to: String

        @Option(help: "The page's title, shown until the page loads.")
        var title = ""

        func validate() throws {
            guard let parsed = URL(string: url), parsed.scheme != nil else {
                throw ValidationError("\(url) is not a URL (give one with its scheme, e.g. https://example.com).")
            }
        }

        func run() throws {
            let database = try options.openForWriting(create: false)
            defer { try? database.close() }
            let device = try RemoteDeviceName.resolve(to, in: SyncStorage(database: database))
            let client = try connection.client(database: database, path: options.path)
            let command = try waitingFor {
                try await client.sendTab(SyncSendTab(url: url, title: title), to: device.id)
            }
            _ = try waitingFor { try await client.sync() }
            print("sent \(url) to \(device.label) (command \(command.id))")
        }
    }

    /// `sessionstore close-remote DEVICE TAB`: closes a tab on another device.
    struct CloseRemote: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "close-remote",
            abstract: "Close a tab on another device of the account.",
            discussion: """
                TAB is the tab's record id, or its position in the device's tabs as `sessionstore remote` \
                lists them (window after window, from 0). The device closes the tab only if it still shows \
                the page this store last saw; the command expires after 48 hours.
                """)

        @OptionGroup var options: StoreOptions
        @OptionGroup var connection: SyncConnectionOptions

        @Argument(help: "The device: its name, its id or a unique prefix of it.")
        var device: String

        @Argument(help: "The tab: its record id, or its position in the device's tabs.")
        var tab: String

        func run() throws {
            let database = try options.openForWriting(create: false)
            defer { try? database.close() }
            let storage = SyncStorage(database: database)
            let device = try RemoteDeviceName.resolve(device, in: storage)
            let tabs = device.windows.flatMap(\.tabs)
            let target: RemoteTab
            if let position = Int(tab) {
                guard tabs.indices.contains(position) else {
                    throw ValidationError("\(device.label) has \(tabs.count) tabs; \(position) is not one of them.")
                }
                target = tabs[position]
            } else if let match = tabs.first(where: { $0.id == tab.lowercased() }) {
                target = match
            } else {
                throw ValidationError("\(device.label) has no tab \(tab) (see `sessionstore remote`).")
            }
            let client = try connection.client(database: database, path: options.path)
            let command = try waitingFor { try await client.closeRemoteTab(target.id) }
            _ = try waitingFor { try await client.sync() }
            print("closing \(target.title.isEmpty ? target.url : target.title) (\(target.url)) on \(device.label) (command \(command.id))")
        }
    }
}

/// Finds another device by name or id among those last synced.
/// A device of the account as the user names it: its id, a unique prefix of
/// its id (4 or more hexadecimal digits), or its name (any case).
enum RemoteDeviceName {
    static func resolve(_ text: String, in storage: SyncStorage) throws -> RemoteDevice {
        let devices = try storage.remoteDevices()
        if let byID = devices.first(where: { $0.id == text.lowercased() }) { return byID }
        let byName = devices.filter { $0.name.caseInsensitiveCompare(text) == .orderedSame }
        guard byName.count <= 1 else {
            throw ValidationError("\(byName.count) devices are named \(text); give one's id (see `sessionstore devices`).")
        }
        if let device = byName.first { return device }
        let byPrefix = ShortID.pattern(text).map { prefix in devices.filter { $0.id.hasPrefix(prefix) } } ?? []
        guard byPrefix.count <= 1 else {
            throw ValidationError(
                "'\(text)' is ambiguous: \(byPrefix.count) devices' ids begin with it: "
                    + byPrefix.map { "\($0.id) (\($0.label))" }.joined(separator: ", ") + "; give more digits.")
        }
        guard let device = byPrefix.first else {
            throw ValidationError("no other device is named or has the id \(text) (see `sessionstore devices`; run `sessionstore sync` first).")
        }
        return device
    }
}

extension RemoteDevice {
    /// Its name, or its id when it has none.
    var label: String { name.isEmpty ? id : name }
}
