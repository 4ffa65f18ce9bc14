import Foundation
import SessionMirror
import SessionTestSupport
import Testing

/// `install-host` writes the manifest where each browser looks, naming the
/// extension and a launcher that runs the host on the store; `uninstall-host` removes them.
@Suite struct InstallHostTests {
    @Test(arguments: ["chromium", "firefox"])
    func theManifestNamesTheExtension_andItsLauncherRunsTheHostOnTheStore(browser: String) throws {
        try TemporaryDirectory.with { dir in
            let home = dir.file("home")
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            let environment = ["HOME": home, "XDG_CONFIG_HOME": dir.file("config")]
            let install = try runTool(["install-host", "--browser", browser, "--db", "tabs.sqlite"], in: dir.path, environment: environment)
            #expect(install.status == 0, "\(install)")
            // Chromium: its user data directory; Firefox: ~/.mozilla, even with XDG_CONFIG_HOME set
            // (ESR 153 reads no other place).
            let directory = browser == "chromium"
                ? dir.file("config/chromium/NativeMessagingHosts") : "\(home)/.mozilla/native-messaging-hosts"
            let data = try #require(fileBytes("\(directory)/org.sessionstore.host.json"), "\(install)")
            let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(manifest["name"] as? String == "org.sessionstore.host" && manifest["type"] as? String == "stdio")
            if browser == "chromium" {
                #expect(manifest["allowed_origins"] as? [String] == ["chrome-extension://omdbepholdaldndojidhhehgohjdkjlk/"])
            } else {
                #expect(manifest["allowed_extensions"] as? [String] == ["mirror@sessionstore.example"])
            }
            let launcher = try #require(manifest["path"] as? String)
            #expect(FileManager.default.isExecutableFile(atPath: launcher))
            // The browser starts the launcher from anywhere, with arguments of its own.
            let input = HostCommandTests.framed([HostCommandTests.window, HostCommandTests.tab])
            let run = try runTool(["chrome-extension://x/"], in: home, binary: launcher, stdin: input)
            #expect(run.status == 0, "\(run)")
            let ls = try runTool(["ls", "--db", dir.file("tabs.sqlite")], in: dir.path)
            #expect(ls.stdout.contains("https://example.org/"), "\(ls)")
            // The launcher names the browser: its windows are kept apart from another browser's.
            let sources = try runTool([dir.file("tabs.sqlite"), "SELECT source FROM browser_sources"], in: dir.path, binary: "/usr/bin/sqlite3")
            #expect(sources.stdout == "\(browser)\n", "\(sources)")
            let uninstall = try runTool(["uninstall-host", "--browser", browser], in: dir.path, environment: environment)
            #expect(uninstall.status == 0, "\(uninstall)")
            #expect(!FileManager.default.fileExists(atPath: "\(directory)/org.sessionstore.host.json"))
            #expect(!FileManager.default.fileExists(atPath: launcher))
        }
    }

    /// The extension's manifests name what the host manifest allows: Chromium's key
    /// gives the id in allowed_origins, Firefox's gecko id is in allowed_extensions.
    @Test func theExtensionsManifests_matchTheHostManifest() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let chromium = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: root.appendingPathComponent("Extension/manifest.json"))) as? [String: Any])
        let firefox = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: root.appendingPathComponent("Extension/manifest.firefox.json"))) as? [String: Any])
        // Chromium's id: the first 128 bits of the key's SHA-256, in the letters a to p.
        let text = try #require(chromium["key"] as? String)
        let key = try #require(Data(base64Encoded: text))
        let digest = try runTool(["dgst", "-sha256", "-hex"], in: root.path, binary: "/usr/bin/openssl", stdin: key)
        let hex = (digest.stdout.split(separator: " ").last ?? "").prefix(32)
        let id = String(hex.map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(String($0), radix: 16)!)) })
        #expect(id == "omdbepholdaldndojidhhehgohjdkjlk")
        let gecko = (firefox["browser_specific_settings"] as? [String: Any])?["gecko"] as? [String: Any]
        #expect(gecko?["id"] as? String == "mirror@sessionstore.example")
        for manifest in [chromium, firefox] {
            let permissions = manifest["permissions"] as? [String] ?? []
            #expect(["tabs", "tabGroups", "webNavigation", "nativeMessaging"].allSatisfy(permissions.contains))
            #expect(manifest["incognito"] as? String == "not_allowed")
        }
    }
}
