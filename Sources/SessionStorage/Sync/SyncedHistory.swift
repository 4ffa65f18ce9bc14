import Foundation
internal import GRDB

/// The navigations a synced tab carries: from current−6 to current+5 (as Chrome
/// syncs them), without the pages that never leave the device.
package enum SyncedHistory {
    /// Navigations before and after the current one that a record carries.
    static let before = 6
    static let after = 5
    /// A URL longer than this is cut to its origin.
    static let longestURL = 8 * 1024
    /// Schemes whose pages are never synced.
    static let privateSchemes: Set<String> = ["data", "blob", "file", "about"]

    /// The window of a tab's history around its current entry, and the current
    /// page's index in it; `nil` when no page of it may be published.
    static func window(
        _ db: Database, tabID: String, historyStart: Int64, currentIndex: Int64?
    ) throws -> (current: Int, navigations: [SyncedNavigation])? {
        guard let currentIndex else { return nil }
        let current = historyStart + currentIndex
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT sequence, url, title, virtual_url, favicon_url, timestamp FROM navigation_entries
                WHERE tab_id = ? AND sequence BETWEEN ? AND ? ORDER BY sequence
                """,
            arguments: [tabID, current - Int64(before), current + Int64(after)])
        var navigations: [SyncedNavigation] = []
        var currentPosition: Int?
        for row in rows {
            let sequence: Int64 = row[0]
            let url: String = row[1]
            guard isPublishable(url) else { continue }
            if sequence <= current { currentPosition = navigations.count }
            navigations.append(SyncedNavigation(
                url: shortened(url), title: row[2], virtualURL: (row[3] as String?).map(shortened),
                faviconURL: (row[4] as String?).map(shortened), time: SyncRows.milliseconds(row[5])))
        }
        guard !navigations.isEmpty else { return nil }
        return (currentPosition ?? 0, navigations)
    }

    /// Whether a page with this URL may leave the device.
    static func isPublishable(_ url: String) -> Bool {
        guard let colon = url.firstIndex(of: ":") else { return true }
        return !privateSchemes.contains(url[..<colon].lowercased())
    }

    /// The URL, or its origin when it is longer than ``longestURL``.
    static func shortened(_ url: String) -> String {
        guard url.utf8.count > longestURL else { return url }
        return origin(of: url) ?? String(decoding: url.utf8.prefix(longestURL), as: UTF8.self)
    }

    /// A URL's origin, `scheme://host[:port]/`, or `nil` when it has no host.
    package static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host
        else { return nil }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "") + "/"
    }
}
