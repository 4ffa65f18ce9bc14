import Crypto
import Foundation
import SessionStorage
import Testing
@testable import SessionSync

/// Sealed records as docs/sync-protocol.md describes them: they open only in
/// their place (account, device, id, kind, version), a changed byte is refused,
/// and a record too large for the cap loses its farthest navigations first.
@Suite struct RecordSealerTests {
    static let seed = try! SyncSeed(bytes: Data((0..<32).map { UInt8($0) }))
    static let device = "11111111-1111-4111-8111-111111111111"

    static func tab(navigations: Int, current: Int, urlLength: Int = 40) -> SyncedTab {
        SyncedTab(
            id: "33333333-3333-4333-8333-333333333333", window: "44444444-4444-4444-8444-444444444444", sortKey: 1,
            pinned: false, group: nil, opener: nil, lastActive: 1, current: current,
            navigations: (0..<navigations).map { index in
                SyncedNavigation(
                    url: "https://example.com/\(index)/" + String(repeating: "x", count: urlLength),
                    title: "Page \(index)", time: Int64(index))
            })
    }

    @Test func aSealedRecordOpens_onlyInItsPlace() throws {
        let keys = AccountKeys(seed: Self.seed)
        let sealer = RecordSealer(account: keys)
        let content = SyncRecordContent.tab(Self.tab(navigations: 3, current: 1))
        let (recordID, sealed) = try sealer.seal(content, localID: "33333333-3333-4333-8333-333333333333", deviceID: Self.device, version: 7)
        #expect(recordID == keys.recordID(kind: .tab, deviceID: Self.device, localID: "33333333-3333-4333-8333-333333333333"))
        #expect(recordID != keys.recordID(kind: .tab, deviceID: "22222222-2222-4222-8222-222222222222", localID: "33333333-3333-4333-8333-333333333333"))
        #expect(recordID.count == 32 && sealed.first == 1)
        #expect(sealer.open(sealed, recordID: recordID, deviceID: Self.device, version: 7)?.content == content)

        // Another version, device, id or account: refused.
        #expect(sealer.open(sealed, recordID: recordID, deviceID: Self.device, version: 8) == nil)
        #expect(sealer.open(sealed, recordID: recordID, deviceID: "22222222-2222-4222-8222-222222222222", version: 7) == nil)
        #expect(sealer.open(sealed, recordID: String(repeating: "0", count: 32), deviceID: Self.device, version: 7) == nil)
        let stranger = RecordSealer(account: AccountKeys(seed: .generate()))
        #expect(stranger.open(sealed, recordID: recordID, deviceID: Self.device, version: 7) == nil)
        // Any changed byte: refused.
        for index in [0, 1, 13, sealed.count / 2, sealed.count - 1] {
            var tampered = sealed
            tampered[index] ^= 0x01
            #expect(sealer.open(tampered, recordID: recordID, deviceID: Self.device, version: 7) == nil)
        }
        // Nothing of the content shows in the sealed bytes.
        #expect(sealed.range(of: Data("example.com".utf8)) == nil)
    }

    @Test func aSealedTombstone_opensAsADeletion_onlyInItsPlace() throws {
        let keys = AccountKeys(seed: Self.seed)
        let sealer = RecordSealer(account: keys)
        let local = "33333333-3333-4333-8333-333333333333"
        let (recordID, sealed) = try sealer.sealTombstone(kind: .closed, localID: local, deviceID: Self.device, version: 9)
        #expect(recordID == keys.recordID(kind: .closed, deviceID: Self.device, localID: local))
        guard case .deleted(let kind)? = sealer.opened(sealed, recordID: recordID, deviceID: Self.device, version: 9) else {
            Issue.record("a sealed tombstone did not open as a deletion")
            return
        }
        #expect(kind == .closed)
        // It is no record, and it opens nowhere else: another version, device, id or account.
        #expect(sealer.open(sealed, recordID: recordID, deviceID: Self.device, version: 9) == nil)
        #expect(sealer.opened(sealed, recordID: recordID, deviceID: Self.device, version: 10) == nil)
        #expect(sealer.opened(sealed, recordID: recordID, deviceID: "22222222-2222-4222-8222-222222222222", version: 9) == nil)
        #expect(sealer.opened(sealed, recordID: String(repeating: "0", count: 32), deviceID: Self.device, version: 9) == nil)
        #expect(RecordSealer(account: AccountKeys(seed: .generate()))
            .opened(sealed, recordID: recordID, deviceID: Self.device, version: 9) == nil)
    }

    @Test func aRevocationStatement_verifiesOnlyForItsDeviceAndTime() throws {
        let keys = AccountKeys(seed: Self.seed)
        let signature = try keys.revocationSignature(deviceID: Self.device, revokedAt: 1_795_000_000)
        #expect(keys.verifiesRevocation(of: Self.device, revokedAt: 1_795_000_000, signature: signature))
        #expect(!keys.verifiesRevocation(of: Self.device, revokedAt: 1_795_000_001, signature: signature))
        #expect(!keys.verifiesRevocation(of: "22222222-2222-4222-8222-222222222222", revokedAt: 1_795_000_000, signature: signature))
        let stranger = AccountKeys(seed: .generate())
        #expect(!stranger.verifiesRevocation(of: Self.device, revokedAt: 1_795_000_000, signature: signature))
    }

    @Test func aRecordOverTheCap_dropsItsFarthestNavigationsFirst() throws {
        let sealer = RecordSealer(account: AccountKeys(seed: Self.seed))
        let big = Self.tab(navigations: 12, current: 3, urlLength: 2000)
        let (recordID, sealed) = try sealer.seal(.tab(big), localID: big.id, deviceID: Self.device, version: 1)
        #expect(sealed.count <= RecordSealer.maximumSealedBytes)
        guard case .tab(let opened)? = sealer.open(sealed, recordID: recordID, deviceID: Self.device, version: 1)?.content
        else { Issue.record("did not open"); return }
        #expect(opened.currentNavigation == big.navigations[3])
        #expect(opened.navigations.count < 12 && opened.navigations.count >= 7)
        // The ones kept are the nearest to the current one.
        let kept = opened.navigations.map { big.navigations.firstIndex(of: $0)! }
        let farthestKept = kept.map { abs($0 - 3) }.max()!
        let farthestDropped = Set(0..<12).subtracting(kept).map { abs($0 - 3) }.min()!
        #expect(farthestKept <= farthestDropped)
    }

    @Test func keys_deriveAsDocumented() throws {
        let keys = AccountKeys(seed: Self.seed)
        let signing = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Self.seed.bytes), salt: Data("sessionstore-sync/v1".utf8),
            info: Data("account-signing".utf8), outputByteCount: 32)
        let publicKey = try Curve25519.Signing.PrivateKey(rawRepresentation: signing.withUnsafeBytes { Data($0) })
            .publicKey.rawRepresentation
        #expect(keys.publicKey == publicKey)
        #expect(keys.accountID == SHA256.hash(data: publicKey).prefix(16).map { String(format: "%02x", $0) }.joined())
        #expect(try SyncSeed(text: Self.seed.text) == Self.seed)
        #expect(Self.seed.text.count == 43)
        #expect(throws: SyncError.self) { try SyncSeed(text: "not a seed") }
        #expect(throws: SyncError.self) { try SyncSeed(text: Data(count: 16).base64EncodedString()) }
    }

    @Test func theKeyFile_isPrivate_andRefusesWhatIsNotOne() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = SyncKeyFile(besideStoreAt: directory.appendingPathComponent("store.sqlite").path)
        #expect(try file.load() == nil)
        let credentials = SyncCredentials(seed: Self.seed, device: .generate(), versionFloor: 42)
        try file.save(credentials)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let loaded = try #require(try file.load())
        #expect(loaded.seed == Self.seed && loaded.device.deviceID == credentials.device.deviceID && loaded.versionFloor == 42)
        #expect(loaded.device.publicKeyText == credentials.device.publicKeyText)

        // Readable by others: refused, as ssh refuses an open key, and left as it is.
        #expect(chmod(file.path, 0o644) == 0)
        #expect { try file.load() } throws: { error in
            guard case SyncError.invalidKeys(_, let reason) = error else { return false }
            return reason.contains("mode is 644") && reason.contains("chmod 600")
        }
        #expect(chmod(file.path, 0o600) == 0)
        #expect(try file.load() != nil)

        for garbage in ["", "{}", "[1,2]", #"{"format":"sessionstore-sync-keys","version":9,"seed":"","device_id":"","device_key":"","version_floor":1}"#] {
            try Data(garbage.utf8).write(to: URL(fileURLWithPath: file.path))
            #expect(throws: SyncError.self) { try file.load() }
        }
    }
}
