import ArgumentParser
import Foundation
import SessionMirror
import SessionStorage

extension SessionStore {
    /// `sessionstore open --in BROWSER [WINDOW …]`: stored windows opened in a running
    /// browser, through the host its extension started.
    struct Open: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open stored windows in a running browser, through its extension and host.",
            discussion: """
                The browser must be running with the extension (Extension/) and its host installed for \
                this store (`sessionstore install-host --source SOURCE`). Each window opens with its tabs \
                in order, pinned tabs, groups and active tab; only the active tab loads its page. The \
                tabs stay the store's tabs, with their histories: a restore is not a copy. With no \
                WINDOW, every stored window of that browser (or of none) that it does not show opens. \
                A window is an open browser of the store (as `sessionstore ls` prints it) or a recently \
                closed window (closed:ENTRY, as `sessionstore closed` prints it). Back and forward \
                history cannot be given to a browser through the extensions API: the store keeps it. \
                Exits 69 when no host of that browser runs for this store, 1 when the host refused \
                or a window failed, 75 when the browser did not answer within --timeout.
                """)

        @OptionGroup var options: StoreOptions

        @Option(name: .customLong("in"), help: ArgumentHelp(
            "The browser to open them in: its source, as its host was installed with (chromium, firefox).",
            valueName: "browser"))
        var browser: String

        @Argument(help: ArgumentHelp("The stored windows to open (default: all of that browser's not shown).", valueName: "window"))
        var windows: [String] = []

        @Option(help: ArgumentHelp("How long to wait for the browser, in seconds (1...3600).", valueName: "seconds"))
        var timeout = 300

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func validate() throws {
            guard BrowserSource(rawValue: browser) != nil else {
                throw ValidationError("--in must be 1 to 64 characters, none of them a control character.")
            }
            guard (1...3600).contains(timeout) else { throw ValidationError("--timeout must be between 1 and 3600.") }
        }

        func run() throws {
            let source = BrowserSource(rawValue: browser)!
            let (asked, ids) = try options.reading { database in
                let resolver = IdentifierResolver(database: database)
                return (try windows.map { try resolve($0, with: resolver) }, try ShortIDs(database: database))
            }
            let path = HostChannel.path(store: options.path, source: source)
            let descriptor: Int32
            do {
                descriptor = try HostChannel.connect(to: path)
            } catch {
                ExitStatus.fail(
                    message: "no \(source) host runs for \(options.path) (\(error)): start the browser with the extension, "
                        + "its host installed for this store (`sessionstore install-host --browser … --db \(options.path)`)",
                    status: ExitStatus.unavailable)
            }
            defer { close(descriptor) }
            guard HostChannel.write(try HostChannel.line(HostChannel.Request(open: asked)), to: descriptor),
                  let line = HostChannel.readLine(from: descriptor, timeout: TimeInterval(timeout))
            else {
                ExitStatus.fail(
                    message: "the \(source) host did not answer within \(timeout) s (is its extension current?)",
                    status: ExitStatus.temporaryFailure)
            }
            guard let answer = try? JSONDecoder().decode(HostChannel.Answer.self, from: line) else {
                ExitStatus.fail(message: "the \(source) host answered what this command cannot read", status: ExitStatus.software)
            }
            if let error = answer.error { ExitStatus.fail(message: error, status: ExitStatus.problemsFound) }
            if json {
                try JSONOutput.print(answer.results)
            } else {
                for result in answer.results {
                    let name = ids.browser(result.browser)
                    if let error = result.error {
                        StandardError.write("sessionstore: \(name): \(shown(error))\n")
                    } else {
                        print("\(name)\topened as window \(result.window ?? 0)\t\(result.tabs ?? 0) tab(s)")
                    }
                }
            }
            if answer.results.contains(where: { $0.error != nil }) { throw ExitCode(ExitStatus.problemsFound) }
        }

        /// An open browser, or a recently closed window's browser.
        private func resolve(_ typed: String, with resolver: IdentifierResolver) throws -> String {
            if typed.hasPrefix("closed:") {
                let id = try resolver.closedEntry(typed)
                guard let entry = try SQLiteRecentlyClosedRepository(database: resolver.database).entries()
                    .first(where: { $0.id == id }), entry.kind == .window, let browser = entry.browser
                else { throw ValidationError("\(typed) is not a recently closed window.") }
                return browser.uuidString
            }
            return try resolver.browser(typed).uuidString
        }
    }
}
