import Foundation
import SessionStorage
import Testing
@testable import SessionSync

/// A record sealed here opens in another implementation written from
/// docs/sync-protocol.md alone: Python's `cryptography` (Server/Tests/Scripts/open_record.py).
@Suite struct IndependentOpeningTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Server/Tests/Scripts/open_record.py").path

    static var pythonHasCryptography: Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import cryptography"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    private func open(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(.enabled(if: pythonHasCryptography, "python3 with the cryptography package"))
    func pythonOpensARecordSealedHere_andRefusesATamperedOne() throws {
        let seed = SyncSeed.generate()
        let keys = AccountKeys(seed: seed)
        let device = DeviceIdentity.generate()
        let tab = SyncedTab(
            id: "33333333-3333-4333-8333-333333333333", window: "44444444-4444-4444-8444-444444444444", sortKey: 9,
            pinned: true, group: nil, opener: nil, lastActive: 5, current: 0,
            navigations: [SyncedNavigation(url: "https://private.example/ünïcode?q=1", title: "Ünïcode title", time: 7)])
        let (recordID, sealed) = try RecordSealer(account: keys).seal(
            .tab(tab), localID: tab.id, deviceID: device.deviceID, version: 12)
        let opened = try open([seed.text, keys.accountID, device.deviceID, recordID, "12", sealed.base64EncodedString()])
        #expect(opened.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(opened.output.utf8)) as? [String: Any]
        let payload = object?["payload"] as? [String: Any]
        #expect(object?["kind"] as? String == "tab")
        #expect((payload?["navigations"] as? [[String: Any]])?.first?["url"] as? String == "https://private.example/ünïcode?q=1")
        #expect(payload?["sort_key"] as? Int == 9)

        var tampered = sealed
        tampered[20] ^= 0x80
        let refused = try open([seed.text, keys.accountID, device.deviceID, recordID, "12", tampered.base64EncodedString()])
        #expect(refused.status == 1)
        let wrongVersion = try open([seed.text, keys.accountID, device.deviceID, recordID, "11", sealed.base64EncodedString()])
        #expect(wrongVersion.status == 1)
    }

    @Test(.enabled(if: pythonHasCryptography, "python3 with the cryptography package"))
    func pythonOpensACommandSealedHere_andRefusesOneRedirected() throws {
        let seed = SyncSeed.generate()
        let keys = AccountKeys(seed: seed)
        let (sender, target, other) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased(), UUID().uuidString.lowercased())
        let id = UUID().uuidString.lowercased()
        let command = SyncCommand.closeTab(SyncCloseTab(
            recordID: String(repeating: "a", count: 32), tabID: "33333333-3333-4333-8333-333333333333",
            url: "https://private.example/ünïcode"))
        let sealed = try CommandSealer(account: keys).seal(command, id: id, sender: sender, target: target, expiresAt: 1_795_000_000)
        let opened = try open([
            "--command", seed.text, keys.accountID, sender, target, id, "1795000000", sealed.base64EncodedString(),
        ])
        #expect(opened.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(opened.output.utf8)) as? [String: Any]
        #expect(object?["type"] as? String == "close_tab")
        #expect((object?["close"] as? [String: Any])?["url"] as? String == "https://private.example/ünïcode")
        // Sent to another device, or given a longer life, it no longer opens.
        let redirected = try open([
            "--command", seed.text, keys.accountID, sender, other, id, "1795000000", sealed.base64EncodedString(),
        ])
        #expect(redirected.status == 1)
        let extended = try open([
            "--command", seed.text, keys.accountID, sender, target, id, "1795086400", sealed.base64EncodedString(),
        ])
        #expect(extended.status == 1)
    }
}
