import ArgumentParser
import Foundation
import SessionStorage
import SessionSync

extension SessionStore {
    /// `sessionstore devices`: the account's other devices, as last synced.
    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the account's other devices as last synced (works offline).")

        @OptionGroup var options: StoreOptions

        @Flag(help: "Print JSON instead of text.")
        var json = false

        struct Row: Encodable {
            var id: String
            var name: String
            var formFactor: String
            var lastSeenAt: Date?
            var windows: Int
            var tabs: Int
            var closedTabs: Int
            /// Silent for 28 days or more.
            var hidden: Bool
        }

        func run() throws {
            let devices = try options.reading { try SyncStorage(database: $0).remoteDevices() }
            let hideBefore = Date().addingTimeInterval(-OtherDevicesMediator.defaultHidingAge)
            let rows = devices.map {
                Row(id: $0.id, name: $0.name, formFactor: $0.formFactor,
                    lastSeenAt: $0.lastSeenAt,
                    windows: $0.windows.count, tabs: $0.tabCount, closedTabs: $0.closedTabs.count,
                    hidden: ($0.lastSeenAt ?? .distantPast) < hideBefore)
            }
            if json {
                try JSONOutput.print(rows)
                return
            }
            if rows.isEmpty { print("no other devices (pair another device, then run `sessionstore sync`)") }
            for row in rows {
                let name = row.name.isEmpty ? "(unnamed)" : row.name
                print("\(name)  \(row.formFactor)  \(row.windows) windows, \(row.tabs) tabs  last seen \(row.lastSeenAt.map(SessionReport.time) ?? "never")\(row.hidden ? " (silent 28 days or more)" : "")  \(ShortID.short(row.id, length: 8))")
            }
        }
    }

    /// `sessionstore remote`: the other devices' tabs, as last synced.
    struct Remote: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the other devices' open tabs as last synced (works offline).")

        @OptionGroup var options: StoreOptions

        @Flag(help: "Print JSON instead of text.")
        var json = false

        struct Tab: Encodable {
            var device: String
            var deviceName: String
            var window: String
            var index: Int
            var record: String
            var pinned: Bool
            var group: String?
            var title: String
            var url: String
        }

        func run() throws {
            let devices = try options.reading { try SyncStorage(database: $0).remoteDevices() }
            var tabs: [Tab] = []
            for device in devices {
                for window in device.windows {
                    for (index, tab) in window.tabs.enumerated() {
                        tabs.append(Tab(
                            device: device.id, deviceName: device.name, window: window.id, index: index, record: tab.id,
                            pinned: tab.isPinned, group: tab.groupTitle, title: tab.title, url: tab.url))
                    }
                }
            }
            if json {
                try JSONOutput.print(tabs)
                return
            }
            var lastWindow: String?
            for tab in tabs {
                if tab.window != lastWindow {
                    print("\(tab.deviceName.isEmpty ? tab.device : tab.deviceName), window \(tab.window):")
                    lastWindow = tab.window
                }
                let title = tab.title.isEmpty ? tab.url : tab.title
                print("  \(tab.index)\(tab.pinned ? " [pinned]" : "")\(tab.group.map { " [\($0)]" } ?? "")  \(title)  \(tab.url)")
            }
        }
    }
}
