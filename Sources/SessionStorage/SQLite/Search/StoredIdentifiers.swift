import Foundation
internal import GRDB
import SessionModel

/// A kind of identifier the store keeps, which the `sessionstore` command takes
/// by a unique prefix (as git takes a commit's).
package enum StoredIdentifierKind: Sendable {
    /// A tab, open or recently closed (`tabs.id`).
    case tab
    /// An open browser (`browsers.id` of a browser not in recently closed).
    case browser
    /// A recently closed entry (`closed_entries.id`).
    case closedEntry

    /// The identifiers of this kind, as a `FROM … WHERE` clause over a column `id`.
    fileprivate var source: String {
        switch self {
        case .tab: "tabs"
        case .browser: "browsers WHERE closed_entry_id IS NULL"
        case .closedEntry: "closed_entries"
        }
    }
}

extension SessionDatabase {
    /// The identifiers of `kind` that begin with `prefix`, in order, at most `limit`.
    ///
    /// - Parameter prefix: Lowercase UUID text, or the start of it, with its dashes
    ///   where a UUID has them (`0a1b2c3d-4e`); any other character matches nothing.
    package func identifiers(of kind: StoredIdentifierKind, startingWith prefix: String, limit: Int) throws -> [String] {
        // Only hexadecimal digits and dashes reach GLOB: no character of the prefix
        // is a GLOB wildcard, and the `id` primary key's index serves the range.
        guard prefix.allSatisfy({ $0 == "-" || ($0.isASCII && $0.isHexDigit && !$0.isUppercase) }) else { return [] }
        let source = kind.source
        let filter = source.contains("WHERE") ? "AND" : "WHERE"
        return try read { db in
            try String.fetchAll(
                db, sql: "SELECT id FROM \(source) \(filter) id GLOB ? ORDER BY id LIMIT ?",
                arguments: [prefix + "*", limit])
        }
    }

    /// How many identifiers of `kind` the store holds: what decides how long a
    /// short identifier must be to stay unique.
    package func identifierCount(of kind: StoredIdentifierKind) throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(kind.source)") ?? 0 }
    }

    /// The tab at `index` (from 0) of the open browser `browser`, or `nil` when it has no such tab.
    package func tab(inBrowser browser: BrowserID, at index: Int) throws -> WebStateID? {
        guard index >= 0 else { return nil }
        return try read { db in
            try String.fetchOne(
                db, sql: "SELECT id FROM tabs WHERE browser_id = ? ORDER BY sort_key LIMIT 1 OFFSET ?",
                arguments: [browser.uuidString, index])
        }.flatMap(WebStateID.init(uuidString:))
    }
}
