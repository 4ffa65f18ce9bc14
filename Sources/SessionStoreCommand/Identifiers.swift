import Foundation
import SessionModel
import SessionStorage

/// Identifiers as the command prints and takes them, as git prints and takes
/// commits: text output shows a short prefix of each UUID, and every argument
/// that names a tab, browser or closed entry takes any unique prefix of at
/// least ``minimumDigits`` hexadecimal digits (dashes and case do not matter).
enum ShortID {
    /// The fewest hexadecimal digits a typed prefix may have.
    static let minimumDigits = 4

    /// How many characters of a UUID's text to print among `count` identifiers
    /// of one kind: 8 (`0a1b2c3d`) while two of them share 8 in under one store
    /// in a thousand, then 13 (`0a1b2c3d-4e5f`), then 18. A shared prefix is
    /// still taken: it is refused as ambiguous, with the candidates.
    static func length(among count: Int) -> Int {
        // Two of n random identifiers share b bits with a chance of about n² / 2^(b+1).
        let pairs = Double(count) * Double(count)
        if pairs < 0.001 * 0x1p33 { return 8 }
        if pairs < 0.001 * 0x1p49 { return 13 }
        return 18
    }

    /// `id`'s first `length` characters.
    static func short(_ id: String, length: Int) -> String {
        String(id.lowercased().prefix(length))
    }

    /// A typed identifier or prefix as stored text: lowercase, with the dashes
    /// where a UUID has them; `nil` unless it is 4 to 32 hexadecimal digits.
    static func pattern(_ typed: String) -> String? {
        let digits = typed.lowercased().filter { $0 != "-" }
        guard (minimumDigits...32).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        var pattern = ""
        for (offset, digit) in digits.enumerated() {
            if [8, 12, 16, 20].contains(offset) { pattern.append("-") }
            pattern.append(digit)
        }
        return pattern
    }
}

/// Resolves what the user typed to one stored identifier, or says why not.
struct IdentifierResolver {
    let database: SessionDatabase

    /// The one open browser `typed` names (a UUID or a unique prefix of one).
    func browser(_ typed: String) throws -> BrowserID {
        try Self.parsed(try resolve(typed, .browser, noun: "browser", listing: "sessionstore ls"), BrowserID.init(uuidString:))
    }

    /// The one recently closed entry `typed` names; `closed:ENTRY`, as `search` prints it, too.
    func closedEntry(_ typed: String) throws -> ClosedEntryID {
        let bare = typed.hasPrefix("closed:") ? String(typed.dropFirst("closed:".count)) : typed
        return try Self.parsed(
            try resolve(bare, .closedEntry, noun: "recently closed entry", listing: "sessionstore closed"),
            ClosedEntryID.init(uuidString:))
    }

    /// The one tab `typed` names: a tab identifier or a unique prefix of one, or
    /// `BROWSER:INDEX` (a browser prefix and the tab's index in it, from 0).
    func tab(_ typed: String) throws -> WebStateID {
        if let colon = typed.lastIndex(of: ":") {
            let index = typed[typed.index(after: colon)...]
            guard let position = Int(index), position >= 0 else {
                throw InputFailure(
                    message: "'\(shown(typed))': after the browser and ':' comes a tab index (0 or more).",
                    status: ExitStatus.usage)
            }
            let browser = try browser(String(typed[..<colon]))
            guard let tab = try database.tab(inBrowser: browser, at: position) else {
                throw InputFailure(
                    message: "browser \(browser.uuidString) has no tab at index \(position) (see `sessionstore ls --browser \(ShortID.short(browser.uuidString, length: 8))`).",
                    status: ExitStatus.dataError)
            }
            return tab
        }
        return try Self.parsed(try resolve(typed, .tab, noun: "tab", listing: "sessionstore ls --all"), WebStateID.init(uuidString:))
    }

    /// A stored identifier as a value; a row whose identifier is not a UUID is damage, which `check` names.
    private static func parsed<ID>(_ stored: String, _ make: (String) -> ID?) throws -> ID {
        guard let id = make(stored) else {
            throw InputFailure(
                message: "the store holds an identifier that is not a UUID (\(shown(stored))); `sessionstore check` says where.",
                status: ExitStatus.dataError)
        }
        return id
    }

    private func resolve(_ typed: String, _ kind: StoredIdentifierKind, noun: String, listing: String) throws -> String {
        let plural = noun.hasSuffix("entry") ? noun.dropLast() + "ies" : noun + "s"
        guard let pattern = ShortID.pattern(typed) else {
            throw InputFailure(
                message: "'\(shown(typed))' is not a \(noun) identifier: give its UUID, or its first \(ShortID.minimumDigits) or more hexadecimal digits (see `\(listing)`).",
                status: ExitStatus.usage)
        }
        let listed = 10
        let found = try database.identifiers(of: kind, startingWith: pattern, limit: listed + 1)
        switch found.count {
        case 1:
            return found[0]
        case 0:
            throw InputFailure(
                message: "no \(noun) \(pattern)\(pattern.count < 36 ? "…" : "") in the session store (see `\(listing)`).",
                status: ExitStatus.dataError)
        default:
            let count = found.count > listed ? "more than \(listed)" : "\(found.count)"
            throw InputFailure(
                message: "'\(shown(typed))' is ambiguous: \(count) \(plural) begin with it: "
                    + found.prefix(listed).joined(separator: ", ") + (found.count > listed ? ", …" : "")
                    + "; give more digits.",
                status: ExitStatus.usage)
        }
    }
}

/// How text output shows each kind of identifier of one store: as short as
/// ``ShortID/length(among:)`` allows for how many the store holds.
struct ShortIDs {
    private var tabLength = 8
    private var browserLength = 8
    private var closedEntryLength = 8

    /// The lengths for the store `database` holds.
    init(database: SessionDatabase) throws {
        tabLength = ShortID.length(among: try database.identifierCount(of: .tab))
        browserLength = ShortID.length(among: try database.identifierCount(of: .browser))
        closedEntryLength = ShortID.length(among: try database.identifierCount(of: .closedEntry))
    }

    func tab(_ id: String) -> String { ShortID.short(id, length: tabLength) }
    func browser(_ id: String) -> String { ShortID.short(id, length: browserLength) }
    func closedEntry(_ id: String) -> String { ShortID.short(id, length: closedEntryLength) }
}
