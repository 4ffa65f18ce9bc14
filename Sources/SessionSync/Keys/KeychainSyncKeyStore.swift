#if canImport(Security)
import Foundation
import Security

/// Credentials kept in the Keychain (Apple platforms), as one generic password
/// item holding the same JSON as ``SyncKeyFile``, available after the first unlock
/// and never synced through iCloud Keychain.
public struct KeychainSyncKeyStore: SyncKeyStore {
    /// The item's service (`kSecAttrService`).
    public let service: String
    /// The item's account (`kSecAttrAccount`): one per store.
    public let account: String

    /// The item of `service` and `account`.
    public init(service: String = "sessionstore-sync", account: String) {
        self.service = service
        self.account = account
    }

    private var query: [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecAttrSynchronizable as String: false,
        ]
    }

    /// A file in a temporary directory that carries the JSON through ``SyncKeyFile``'s reading and writing.
    private func throughFile<T>(_ body: (SyncKeyFile) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(SyncKeyFile(path: directory.appendingPathComponent("keys").path))
    }

    public func load() throws -> SyncCredentials? {
        var request = query
        request[kSecReturnData as String] = true
        request[kSecMatchLimit as String] = kSecMatchLimitOne
        var item: CFTypeRef?
        let status = SecItemCopyMatching(request as CFDictionary, &item)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = item as? Data else {
            throw SyncError.invalidKeys(path: "Keychain item \(service)/\(account)", reason: "reading it failed (\(status))")
        }
        return try throughFile { file in
            FileManager.default.createFile(atPath: file.path, contents: data, attributes: [.posixPermissions: 0o600])
            return try file.load()
        }
    }

    public func save(_ credentials: SyncCredentials) throws {
        let data = try throughFile { file -> Data in
            try file.save(credentials)
            return try Data(contentsOf: URL(fileURLWithPath: file.path))
        }
        let update: [String: Any] = [kSecValueData as String: data]
        var status = SecItemUpdate(query as CFDictionary, update as CFDictionary)
        if status == errSecItemNotFound {
            var add = query
            add[kSecValueData as String] = data
            add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            status = SecItemAdd(add as CFDictionary, nil)
        }
        guard status == errSecSuccess else {
            throw SyncError.invalidKeys(path: "Keychain item \(service)/\(account)", reason: "writing it failed (\(status))")
        }
    }

    public func remove() throws {
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw SyncError.invalidKeys(path: "Keychain item \(service)/\(account)", reason: "deleting it failed (\(status))")
        }
    }
}
#endif
