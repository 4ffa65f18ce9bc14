import Foundation

/// Credentials kept in a JSON file of mode 0600, by default beside the store
/// (`<store>.sync-keys`). Written to a temporary file and renamed over the old one,
/// so a crash leaves the old file or the new one, never half of either.
public struct SyncKeyFile: SyncKeyStore {
    /// The file's path.
    public let path: String

    /// The key file at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The key file beside the store at `storePath`.
    public init(besideStoreAt storePath: String) {
        self.init(path: storePath + ".sync-keys")
    }

    private struct Contents: Codable {
        var format = "sessionstore-sync-keys"
        var version = 1
        var seed: String
        var deviceID: String
        var deviceKey: String
        var versionFloor: Int64
        var deviceName: String?
        var formFactor: String?
        var serverID: String?
        var accountGeneration: String?

        enum CodingKeys: String, CodingKey {
            case format, version, seed
            case deviceID = "device_id"
            case deviceKey = "device_key"
            case versionFloor = "version_floor"
            case deviceName = "device_name"
            case formFactor = "form_factor"
            case serverID = "server_id"
            case accountGeneration = "account_generation"
        }
    }

    /// Reads the credentials; `nil` when there is no file.
    ///
    /// A file that others may read or write (any group or other permission bit,
    /// such as mode 0644) is refused, as ssh refuses an open private key: the seed
    /// opens every tab of the account on every device.
    ///
    /// - Throws: ``SyncError/invalidKeys(path:reason:)``.
    public func load() throws -> SyncCredentials? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        if let mode = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue,
           mode & 0o077 != 0 {
            throw SyncError.invalidKeys(
                path: path,
                reason: "its mode is \(String(mode & 0o777, radix: 8)), so others may read the account's seed; "
                    + "if no one else has, make it private with `chmod 600` (if someone may have, move the devices to a new "
                    + "account with `sessionstore pair --rotate`)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SyncError.invalidKeys(path: path, reason: "it cannot be read (\(error.localizedDescription))")
        }
        guard let contents = try? JSONDecoder().decode(Contents.self, from: data),
              contents.format == "sessionstore-sync-keys"
        else { throw SyncError.invalidKeys(path: path, reason: "it is not a sync key file") }
        guard contents.version == 1 else {
            throw SyncError.invalidKeys(path: path, reason: "its version \(contents.version) is newer than this binary's (1)")
        }
        let seed: SyncSeed
        do {
            seed = try SyncSeed(text: contents.seed)
        } catch {
            throw SyncError.invalidKeys(path: path, reason: "its seed is malformed")
        }
        guard let keyBytes = Data(base64Encoded: contents.deviceKey) else {
            throw SyncError.invalidKeys(path: path, reason: "its device key is not base64")
        }
        let device = try DeviceIdentity(deviceID: contents.deviceID, keyBytes: keyBytes, path: path)
        var credentials = SyncCredentials(
            seed: seed, device: device, versionFloor: max(1, contents.versionFloor),
            deviceName: contents.deviceName ?? "", formFactor: contents.formFactor ?? "unknown")
        credentials.serverID = contents.serverID
        credentials.accountGeneration = contents.accountGeneration
        return credentials
    }

    public func save(_ credentials: SyncCredentials) throws {
        let contents = Contents(
            seed: credentials.seed.text, deviceID: credentials.device.deviceID,
            deviceKey: credentials.device.signingKey.rawRepresentation.base64EncodedString(),
            versionFloor: credentials.versionFloor, deviceName: credentials.deviceName,
            formFactor: credentials.formFactor, serverID: credentials.serverID,
            accountGeneration: credentials.accountGeneration)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = try encoder.encode(contents)
        let temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(
            atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600])
        else { throw SyncError.invalidKeys(path: path, reason: "a file cannot be created beside it") }
        do {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
            guard rename(temporary, path) == 0 else {
                throw SyncError.invalidKeys(path: path, reason: "it cannot be replaced (errno \(errno))")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    public func remove() throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        try FileManager.default.removeItem(atPath: path)
    }
}
