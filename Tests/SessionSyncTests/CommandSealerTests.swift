import Crypto
import Foundation
import SessionStorage
import Testing
@testable import SessionSync

/// Sealed commands: they open only for the target, from the sender, under the
/// id and expiry they were sealed with, so the server (which sees those four in
/// clear) can neither redirect a command, nor replay it under another id, nor
/// extend its life; a changed byte or another account's key is refused.
@Suite struct CommandSealerTests {
    static let seed = try! SyncSeed(bytes: Data((0..<32).map { UInt8($0) }))
    static let sender = "11111111-1111-4111-8111-111111111111"
    static let target = "22222222-2222-4222-8222-222222222222"
    static let third = "33333333-3333-4333-8333-333333333333"
    static let id = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa"
    static let expiresAt: Int64 = 1_790_864_000

    static let sendTab = SyncCommand.sendTab(SyncSendTab(
        url: "https://example.com/article", title: "An article",
        navigations: [
            SyncedNavigation(url: "https://example.com/", title: "Home", time: 1_790_000_000_000),
            SyncedNavigation(url: "https://example.com/article", title: "An article", time: 1_790_000_001_000),
        ],
        current: 1))
    static let closeTab = SyncCommand.closeTab(SyncCloseTab(
        recordID: String(repeating: "c", count: 32), tabID: "44444444-4444-4444-8444-444444444444",
        url: "https://example.com/secret"))

    let sealer = CommandSealer(account: AccountKeys(seed: Self.seed))

    private func sealed(_ command: SyncCommand = Self.sendTab) throws -> Data {
        try sealer.seal(command, id: Self.id, sender: Self.sender, target: Self.target, expiresAt: Self.expiresAt)
    }

    private func open(
        _ data: Data, id: String = Self.id, sender: String = Self.sender, target: String = Self.target,
        expiresAt: Int64 = Self.expiresAt, with sealer: CommandSealer? = nil
    ) -> SyncCommand? {
        (sealer ?? self.sealer).open(data, id: id, sender: sender, target: target, expiresAt: expiresAt)
    }

    @Test func aSealedCommand_opensAsItWas() throws {
        for command in [Self.sendTab, Self.closeTab] {
            let data = try sealed(command)
            #expect(open(data) == command)
            // The record format: version byte, nonce, ciphertext, tag; nothing of the content in clear.
            #expect(data.first == RecordSealer.formatVersion)
            let payload = try SyncCommandCoding.encoder.encode(command)
            #expect(data.count == RecordSealer.overhead + payload.count)
            #expect(data.range(of: Data("example.com".utf8)) == nil)
            #expect(data.range(of: Data("send_tab".utf8)) == nil && data.range(of: Data("close_tab".utf8)) == nil)
        }
        // A fresh nonce each time: the same command never seals to the same bytes.
        let (first, second) = (try sealed(), try sealed())
        #expect(first != second && first.dropFirst().prefix(12) != second.dropFirst().prefix(12))
        #expect(open(second) == Self.sendTab)
    }

    @Test func theServer_cannotRedirect_replayUnderAnotherID_orExtendItsLife() throws {
        let data = try sealed(Self.closeTab)
        // Redirected to another device of the account.
        #expect(open(data, target: Self.third) == nil)
        // Passed off as coming from another device.
        #expect(open(data, sender: Self.third) == nil)
        // Sender and target swapped.
        #expect(open(data, sender: Self.target, target: Self.sender) == nil)
        // Replayed under a new id (which would get past "applied once").
        #expect(open(data, id: "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb") == nil)
        #expect(open(data, id: Self.id.uppercased()) == nil)
        // Kept alive past its expiry, or by a second.
        #expect(open(data, expiresAt: Self.expiresAt + 1) == nil)
        #expect(open(data, expiresAt: Self.expiresAt + 30 * 24 * 3600) == nil)
        #expect(open(data, expiresAt: Self.expiresAt - 1) == nil)
        // Untouched, it still opens.
        #expect(open(data) == Self.closeTab)
    }

    @Test func anyChangedByte_isRefused() throws {
        let data = try sealed()
        for index in [0, 1, 12, 13, 14, data.count / 2, data.count - 17, data.count - 1] {
            var tampered = data
            tampered[index] ^= 0x01
            #expect(open(tampered) == nil, "byte \(index)")
        }
        // Cut short, lengthened, or nothing at all.
        #expect(open(data.dropLast()) == nil)
        #expect(open(data + Data([0])) == nil)
        #expect(open(Data(data.prefix(RecordSealer.overhead))) == nil)
        #expect(open(Data()) == nil)
    }

    @Test func anotherAccount_cannotOpen_norForgeACommand() throws {
        let data = try sealed()
        let stranger = CommandSealer(account: AccountKeys(seed: .generate()))
        #expect(open(data, with: stranger) == nil)
        let forged = try stranger.seal(
            Self.sendTab, id: Self.id, sender: Self.sender, target: Self.target, expiresAt: Self.expiresAt)
        #expect(open(forged) == nil)
        #expect(open(forged, with: stranger) == Self.sendTab)
    }

    @Test func aRecord_neverOpensAsACommand_norACommandAsARecord() throws {
        let keys = AccountKeys(seed: Self.seed)
        let tab = SyncedTab(
            id: Self.id, window: "55555555-5555-4555-8555-555555555555", sortKey: 1, pinned: false, group: nil,
            opener: nil, lastActive: 1, current: 0,
            navigations: [SyncedNavigation(url: "https://example.com/", title: "Home", time: 1)])
        let (recordID, record) = try RecordSealer(account: keys).seal(
            .tab(tab), localID: Self.id, deviceID: Self.sender, version: 1)
        #expect(open(record) == nil)
        #expect(open(record, id: recordID, expiresAt: 1) == nil)
        let command = try sealed()
        #expect(RecordSealer(account: keys).open(command, recordID: recordID, deviceID: Self.sender, version: 1) == nil)
    }

    @Test func anAuthenticPayloadThatIsNoKnownCommand_opensAsNothing() throws {
        let keys = AccountKeys(seed: Self.seed)
        let aad = CommandSealer.associatedData(
            accountID: keys.accountID, sender: Self.sender, target: Self.target, commandID: Self.id,
            expiresAt: Self.expiresAt)
        for payload in [#"{"v":2,"type":"close_window","window":"w"}"#, "not json", ""] {
            let box = try ChaChaPoly.seal(Data(payload.utf8), using: keys.recordKey, authenticating: aad)
            #expect(open(Data([RecordSealer.formatVersion]) + box.combined) == nil, "\(payload)")
        }
        // The same way, a known one opens: the refusal above is the payload's.
        let known = try ChaChaPoly.seal(
            SyncCommandCoding.encoder.encode(Self.closeTab), using: keys.recordKey, authenticating: aad)
        #expect(open(Data([RecordSealer.formatVersion]) + known.combined) == Self.closeTab)
    }
}
