import Foundation
import SyncServerHarness
// SyncInternals: the store's command queue and applied ids, which these tests check; not API an app sees.
@_spi(SyncInternals) import SessionStore
import SessionSync
import Testing

/// Commands between two real stores through the real server: a sent tab opens
/// on the other store, a remote close closes exactly the tab named, and with
/// both clients running, delivery needs nobody to ask, across two server
/// processes on one database.
@Suite("end to end: commands")
struct CommandsEndToEndTests {
    @Test func aTabSentFromOneStore_opensInTheOther_once() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            let (phoneWindow, _) = try phone.window([("Maps", "https://maps.example/route")])
            try await phone.client.sync()
            try await laptop.client.sync()

            let command = try await laptop.client.sendTab(
                SyncSendTab(url: "https://article.example/long-read", title: "A long read"),
                to: phone.credentials.device.deviceID)
            let sent = try await laptop.client.sync()
            #expect(sent.commandsSent == 1)
            let received = try await phone.client.sync()
            #expect(received.commandsApplied == 1)
            #expect(try phone.openURLs() == ["https://maps.example/route", "https://article.example/long-read"])
            // The new tab takes the command's id, in the window used last, with the sender's title.
            let snapshot = try await phone.tabs.snapshot(of: phoneWindow)
            let opened = snapshot.list.id(at: 1)
            #expect(opened.uuidString == command.id)
            #expect(snapshot.pages[opened]?.title == "A long read")

            // Nothing twice: a second sync finds nothing, and the command's id is kept as applied.
            let again = try await phone.client.sync()
            #expect(again.commandsApplied == 0)
            #expect(try phone.sync.isCommandApplied(command.id))
            #expect(try phone.openURLs().count == 2)
            // The server kept the id (for replays) but not the sealed command.
            #expect(try await server.scalar("SELECT count(*) FROM commands WHERE sealed IS NOT NULL") == 0)
            #expect(try await server.scalar("SELECT count(*) FROM commands WHERE acked_at IS NOT NULL") == 1)
        }
    }

    @Test func aRemoteClose_closesExactlyTheNamedTab_andOnlyOnItsPage() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            // Two tabs on the same URL: Firefox's close-by-URL could not tell them apart.
            let (window, phoneTabs) = try phone.window([
                ("News", "https://news.example/"), ("News", "https://news.example/"), ("Mail", "https://mail.example/"),
            ])
            try await phone.client.sync()
            try await laptop.client.sync()
            let remote = try #require(try laptop.sync.remoteDevices().first?.windows.first?.tabs)
            #expect(remote.map(\.tabID) == phoneTabs.map(\.uuidString))

            try await laptop.client.closeRemoteTab(remote[1].id, undoWindow: .zero)
            try await laptop.client.sync()
            let report = try await phone.client.sync()
            #expect(report.commandsApplied == 1)
            let after = try await phone.tabs.snapshot(of: window).list
            #expect((0..<after.count).map { after.id(at: $0) } == [phoneTabs[0], phoneTabs[2]])

            // The phone navigated its mail tab since the laptop last saw it: a close of it is left alone.
            try await phone.histories.commit(NavigationItem(url: "https://mail.example/inbox/42", title: "Re: hi"), in: phoneTabs[2])
            try await laptop.client.closeRemoteTab(remote[2].id, undoWindow: .zero)
            try await laptop.client.sync()
            let leftAlone = try await phone.client.sync()
            #expect(leftAlone.commandsApplied == 1)
            #expect(try phone.openURLs() == ["https://news.example/", "https://mail.example/inbox/42"])
        }
    }

    @Test func anUndoneClose_neverLeaves() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            try phone.window([("News", "https://news.example/")])
            try await phone.client.sync()
            try await laptop.client.sync()
            let tab = try #require(try laptop.sync.remoteDevices().first?.windows.first?.tabs.first)

            let command = try await laptop.client.closeRemoteTab(tab.id, undoWindow: .seconds(3600))
            let early = try await laptop.client.sync()
            #expect(early.commandsSent == 0)  // still inside its undo window
            #expect(try await laptop.client.undo(command.id))
            #expect(try await !laptop.client.undo(command.id))
            try await laptop.client.sync()
            #expect(try await server.scalar("SELECT count(*) FROM commands") == 0)
            try await phone.client.sync()
            #expect(try phone.openURLs() == ["https://news.example/"])
        }
    }

    @Test func commands_arriveOverPush_acrossTwoServerProcesses() async throws {
        try await TestServer.with { server in
            // A second server process on the same database: hints cross over LISTEN/NOTIFY.
            let other = try await ServerProcess.start(databaseURL: server.databaseURL)
            defer { Task { await other.stop() } }
            var live = SyncClient.Configuration()
            live.debounce = .milliseconds(50)
            live.undoWindow = .zero
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL, configuration: live)
            let phone = try SyncDevice(
                name: "Phone", seed: laptop.credentials.seed, server: other.baseURL, configuration: live)
            let (_, phoneTabs) = try phone.window([("Docs", "https://docs.example/"), ("Chat", "https://chat.example/")])
            try await phone.client.sync()
            try await laptop.client.sync()
            let remote = try #require(try laptop.sync.remoteDevices().first?.windows.first?.tabs)
            let running = [Task { await laptop.client.run() }, Task { await phone.client.run() }]
            defer { running.forEach { $0.cancel() } }

            // Neither side calls sync(): the laptop's command loop sends, the phone's hint wakes it.
            try await laptop.client.sendTab(SyncSendTab(url: "https://sent.example/"), to: phone.credentials.device.deviceID)
            #expect(try await eventually(30) { try phone.openURLs().contains("https://sent.example/") })
            try await laptop.client.closeRemoteTab(remote[0].id)
            #expect(try await eventually(30) { try phone.openURLs() == ["https://chat.example/", "https://sent.example/"] })
            let phoneWindow = try await phone.browsers.browsers()[0].id
            #expect(try await phone.tabs.snapshot(of: phoneWindow).list.index(of: phoneTabs[0]) == nil)
            // And the phone's own change reaches the laptop the same way.
            try phone.window([("New", "https://new.example/")])
            #expect(try await eventually(30) { try laptop.remoteURLs()["Phone"]?.contains("https://new.example/") == true })
        }
    }

    @Test func aCommandForAGoneDevice_isDropped_andSaysSo() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            try await laptop.client.sync()
            try await laptop.client.sendTab(SyncSendTab(url: "https://x.example/"), to: UUID().uuidString.lowercased())
            await #expect(throws: SyncError.self) { try await laptop.client.sync() }
            #expect(try laptop.sync.dueCommands().isEmpty)
            let status = await laptop.client.status
            #expect(status.lastError?.errorDescription?.contains("is not in the account") == true)
        }
    }
}
