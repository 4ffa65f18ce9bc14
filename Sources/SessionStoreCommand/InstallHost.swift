import ArgumentParser
import Foundation
import SessionStorage

/// Where a browser looks for the native messaging host's manifest, and what it says.
enum NativeHostManifest {
    /// The host's name, as the extension connects to it.
    static let name = "org.sessionstore.host"
    /// The Chromium extension's id: fixed by the `key` in Extension/manifest.json.
    static let chromiumExtensionID = "omdbepholdaldndojidhhehgohjdkjlk"
    /// The Firefox extension's id (`browser_specific_settings.gecko.id` in Extension/manifest.firefox.json).
    static let firefoxExtensionID = "mirror@sessionstore.example"

    enum Browser: String, ExpressibleByArgument, CaseIterable {
        case chromium, firefox
    }

    /// The directory the browser reads host manifests from.
    static func directory(for browser: Browser, userDataDirectory: String?, environment: [String: String]) -> String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        switch browser {
        case .chromium:
            // Chromium reads NativeMessagingHosts/ inside its user data directory.
            let data = userDataDirectory ?? "\(environment["XDG_CONFIG_HOME"] ?? "\(home)/.config")/chromium"
            return "\(data)/NativeMessagingHosts"
        case .firefox:
            // Firefox ESR 153 reads ~/.mozilla/native-messaging-hosts/ (its XREUserNativeManifests),
            // with profiles in ~/.mozilla or in the XDG place alike; a manifest in
            // $XDG_CONFIG_HOME/mozilla/native-messaging-hosts/ is not read. Making ~/.mozilla
            // for it does not move the profiles (checked on ESR 153).
            return "\(home)/.mozilla/native-messaging-hosts"
        }
    }

    /// The manifest's JSON.
    static func manifest(for browser: Browser, launcher: String) throws -> Data {
        var object: [String: Any] = [
            "name": name, "description": "SessionStore: mirrors the browser's tabs into a store",
            "path": launcher, "type": "stdio",
        ]
        switch browser {
        case .chromium: object["allowed_origins"] = ["chrome-extension://\(chromiumExtensionID)/"]
        case .firefox: object["allowed_extensions"] = [firefoxExtensionID]
        }
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    /// A shell script that starts `sessionstore host` on the store (the browser starts
    /// a host without arguments of its choosing: the store is named here).
    static func launcher(binary: String, store: String, source: String) -> String {
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return "#!/bin/sh\n# Written by `sessionstore install-host`: the browser starts this to mirror its tabs.\n"
            + "exec \(quoted(binary)) host --db \(quoted(store)) --source \(quoted(source)) \"$@\"\n"
    }
}

extension SessionStore {
    /// `sessionstore install-host`: registers the native host with a browser.
    struct InstallHost: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install-host",
            abstract: "Register `sessionstore host` with Chromium or Firefox, for the extension in Extension/.",
            discussion: """
                Writes the host manifest where the browser looks for it, and beside it a launcher that \
                runs `sessionstore host --db STORE --source NAME` (the store is made absolute; the \
                name, the browser's by default, keeps its windows apart from another browser's in the same store). Then load the \
                extension: in Chromium, Extension/ unpacked; in Firefox, the XPI \
                Scripts/pack-firefox-extension makes.
                """)

        @OptionGroup var options: StoreOptions

        @Option(help: "The browser: chromium or firefox.")
        var browser: NativeHostManifest.Browser

        @Option(name: .customLong("user-data-dir"), help: ArgumentHelp(
            "Chromium's user data directory (default: ~/.config/chromium).", valueName: "dir"))
        var userDataDirectory: String?

        @Option(help: ArgumentHelp(
            "The name the store keeps this browser's windows under (default: the --browser value).",
            discussion: "Two browsers of one kind sharing a store (Chromium and Chrome, say) need names of their own."))
        var source: String?

        func validate() throws {
            if let source, BrowserSource(rawValue: source) == nil {
                throw ValidationError("--source must be 1 to 64 characters, none of them a control character.")
            }
            if userDataDirectory != nil, browser != .chromium {
                throw ValidationError("--user-data-dir is Chromium's; Firefox reads its manifests from the home directory.")
            }
        }

        func run() throws {
            let environment = ProcessInfo.processInfo.environment
            let directory = NativeHostManifest.directory(for: browser, userDataDirectory: userDataDirectory, environment: environment)
            let store = URL(fileURLWithPath: options.path).standardizedFileURL.path
            let binary = Bundle.main.executablePath ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                let launcher = "\(directory)/\(NativeHostManifest.name).sh"
                let named = source ?? browser.rawValue
                try Data(NativeHostManifest.launcher(binary: binary, store: store, source: named).utf8)
                    .write(to: URL(fileURLWithPath: launcher))
                guard chmod(launcher, 0o755) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                let manifest = "\(directory)/\(NativeHostManifest.name).json"
                try NativeHostManifest.manifest(for: browser, launcher: launcher).write(to: URL(fileURLWithPath: manifest))
                print("wrote \(manifest)")
                print("      \(launcher) (runs: sessionstore host --db \(store) --source \(named))")
            } catch {
                throw InputFailure(
                    message: "\(directory): cannot write the host manifest (\(error.localizedDescription)).",
                    status: ExitStatus.cannotCreate)
            }
            switch browser {
            case .chromium:
                print("next: load the extension unpacked from Extension/ (chrome://extensions, Developer mode, Load unpacked,"
                    + " or --load-extension=PATH/Extension); its id is \(NativeHostManifest.chromiumExtensionID).")
            case .firefox:
                print("next: install the XPI that Scripts/pack-firefox-extension makes (about:addons, Install Add-on From File;"
                    + " an unsigned add-on needs xpinstall.signatures.required=false, which ESR honours).")
            }
        }
    }

    /// `sessionstore uninstall-host`: removes what `install-host` wrote.
    struct UninstallHost: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "uninstall-host", abstract: "Remove the host manifest and launcher that install-host wrote.")

        @Option(help: "The browser: chromium or firefox.")
        var browser: NativeHostManifest.Browser

        @Option(name: .customLong("user-data-dir"), help: ArgumentHelp("Chromium's user data directory.", valueName: "dir"))
        var userDataDirectory: String?

        func run() throws {
            let directory = NativeHostManifest.directory(
                for: browser, userDataDirectory: userDataDirectory, environment: ProcessInfo.processInfo.environment)
            var removed = 0
            for suffix in [".json", ".sh"] {
                let path = "\(directory)/\(NativeHostManifest.name)\(suffix)"
                if (try? FileManager.default.removeItem(atPath: path)) != nil {
                    print("removed \(path)")
                    removed += 1
                }
            }
            if removed == 0 { print("\(directory): no host manifest to remove") }
        }
    }
}
