import ArgumentParser
import Foundation
import SessionModel
import SessionStorage

extension SessionStore {
    /// `sessionstore saved-groups`: the saved tab groups, listed, renamed, deleted and reopened.
    struct SavedGroups: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "saved-groups",
            abstract: "List, rename, delete or reopen saved tab groups.",
            discussion: """
                A saved group is a group closed and kept, with its tabs. With sync on, saved groups \
                are the account's: a change made here reaches the other devices at the next sync \
                (`sessionstore sync`), and theirs reach this store.
                """,
            subcommands: [List.self, Rename.self, Delete.self, Reopen.self],
            defaultSubcommand: List.self)

        /// The one saved group `typed` names: its UUID or a unique prefix of it (``ShortID/minimumDigits``
        /// or more hexadecimal digits; the listing prints 8).
        static func resolve(_ typed: String, among groups: [SavedTabGroup]) throws -> SavedTabGroup {
            guard let pattern = ShortID.pattern(typed) else {
                throw InputFailure(
                    message: "'\(typed)' is not a saved group identifier: give its UUID, or its first "
                        + "\(ShortID.minimumDigits) or more hexadecimal digits (see `sessionstore saved-groups`).",
                    status: ExitStatus.usage)
            }
            let found = groups.filter { $0.id.uuidString.hasPrefix(pattern) }
            switch found.count {
            case 1: return found[0]
            case 0:
                throw InputFailure(
                    message: "no saved group \(pattern)\(pattern.count < 36 ? "…" : "") in the session store "
                        + "(see `sessionstore saved-groups`).",
                    status: ExitStatus.dataError)
            default:
                throw InputFailure(
                    message: "'\(typed)' is ambiguous: \(found.count) saved groups begin with it: "
                        + found.map(\.id.uuidString).joined(separator: ", ") + "; give more digits.",
                    status: ExitStatus.usage)
            }
        }

        /// The saved group `typed` names, read without writing anything (an unknown one changes nothing).
        static func group(_ typed: String, options: StoreOptions) throws -> SavedTabGroup {
            try options.reading { try resolve(typed, among: SQLiteSavedTabGroupRepository(database: $0).savedGroups()) }
        }
    }
}

extension SessionStore.SavedGroups {
    /// `sessionstore saved-groups list`: each saved group, the most recently saved first, with its tabs.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the saved groups, the most recently saved first, with their tabs (the default).")

        @OptionGroup var options: StoreOptions

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() throws {
            let groups = try options.reading { try SQLiteSavedTabGroupRepository(database: $0).savedGroups() }
            if json { return try JSONOutput.print(SavedGroupsReport(groups)) }
            try StandardOutput.write(Data((SavedGroupsReport.lines(groups).joined(separator: "\n") + "\n").utf8))
        }
    }

    /// `sessionstore saved-groups rename GROUP TITLE [--color C]`.
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a saved group, or recolour it.")

        @OptionGroup var options: StoreOptions

        @Argument(help: ArgumentHelp("The saved group: its identifier or a unique prefix of it.", valueName: "group"))
        var group: String

        @Argument(help: "Its new title (the current one with --color alone: give it again).")
        var title: String

        @Option(help: ArgumentHelp(
            "Its new colour: \(TabGroupColor.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "color"))
        var color: String?

        func validate() throws {
            if let color, TabGroupColor(rawValue: color) == nil {
                throw ValidationError(
                    "'\(color)' is not a colour: give one of \(TabGroupColor.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            if title.count > 512 { throw ValidationError("the title is longer than 512 characters.") }
        }

        func run() throws {
            let saved = try SessionStore.SavedGroups.group(group, options: options)
            var visual = saved.visualData
            visual.title = title
            if let color { visual.color = TabGroupColor(rawValue: color) ?? visual.color }
            let database = try options.openForWriting(create: false)
            try SQLiteSavedTabGroupRepository(database: database).update(saved.id, visualData: visual)
            try database.close()
            print("Saved group \(saved.id.uuidString.prefix(8)) is now [\(visual.title) \(visual.color.rawValue)].")
        }
    }

    /// `sessionstore saved-groups delete GROUP`.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a saved group and its tabs (on every device, with sync on).")

        @OptionGroup var options: StoreOptions

        @Argument(help: ArgumentHelp("The saved group: its identifier or a unique prefix of it.", valueName: "group"))
        var group: String

        func run() throws {
            let saved = try SessionStore.SavedGroups.group(group, options: options)
            let database = try options.openForWriting(create: false)
            try SQLiteSavedTabGroupRepository(database: database).delete(saved.id)
            try database.close()
            print("Deleted saved group \(saved.id.uuidString.prefix(8)) [\(saved.visualData.title)] "
                + "and its \(saved.tabs.count) tab\(saved.tabs.count == 1 ? "" : "s").")
        }
    }

    /// `sessionstore saved-groups reopen GROUP [--browser B]`.
    struct Reopen: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open a saved group's tabs in a window, as a group; it is no longer saved.",
            discussion: "Without --browser, the tabs open in a new window.")

        @OptionGroup var options: StoreOptions

        @Argument(help: ArgumentHelp("The saved group: its identifier or a unique prefix of it.", valueName: "group"))
        var group: String

        @Option(help: ArgumentHelp("The window to open it in: its identifier or a unique prefix.", valueName: "browser"))
        var browser: String?

        func run() throws {
            let saved = try SessionStore.SavedGroups.group(group, options: options)
            let window = try browser.map { typed in try options.reading { try IdentifierResolver(database: $0).browser(typed) } }
            let database = try options.openForWriting(create: false)
            let target = try window ?? SQLiteBrowserRepository(database: database).createBrowser().id
            let range = try SQLiteSavedTabGroupRepository(database: database).reopen(saved.id, in: target)
            try database.close()
            print("Reopened \(saved.id.uuidString.prefix(8)) [\(saved.visualData.title)]: \(range.count) "
                + "tab\(range.count == 1 ? "" : "s") at \(range.lowerBound)..<\(range.upperBound) of browser \(target.uuidString).")
        }
    }
}
