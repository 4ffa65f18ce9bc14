import Foundation
import GRDB

/// The upload Firefox's design makes for one changed tab: the device's whole
/// tab list in one record (`{"id", "clientName", "tabs": [{"title",
/// "urlHistory", "icon", "lastUsed"}]}`), encrypted and base64-encoded into a
/// BSO as Firefox Sync does (AES-256-CBC with an HMAC; ciphertext, IV and HMAC
/// as base64 in a JSON payload), and cut at Firefox's 2 MB record cap.
enum FirefoxRecord {
    static let cap = 2 * 1024 * 1024

    /// The record's size in bytes for the store at `path`, and how many of its tabs fit under the cap.
    static func size(ofStoreAt path: String) throws -> (bytes: Int, tabs: Int, keptUnderCap: Int) {
        let queue = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        let tabs: [[String: Any]] = try queue.read { db in
            var tabs: [[String: Any]] = []
            let rows = try Row.fetchCursor(db, sql: """
                SELECT t.id, p.title, (SELECT json_group_array(url) FROM (SELECT url FROM navigation_entries
                    WHERE tab_id = t.id ORDER BY sequence DESC LIMIT 25)) AS history
                FROM tabs AS t JOIN tab_pages AS p ON p.tab_id = t.id WHERE t.browser_id IS NOT NULL
                """)
            while let row = try rows.next() {
                let history: String = row[2]
                let urls = (try? JSONSerialization.jsonObject(with: Data(history.utf8))) as? [String] ?? []
                tabs.append(["title": row[1] as String, "urlHistory": urls, "icon": "", "lastUsed": 1_790_000_000])
            }
            return tabs
        }
        func sealedSize(_ count: Int) throws -> Int {
            let record: [String: Any] = ["id": "0123456789ab", "clientName": "Bench", "tabs": Array(tabs.prefix(count))]
            let plain = try JSONSerialization.data(withJSONObject: record).count
            let ciphertext = (plain / 16 + 1) * 16
            // {"ciphertext": base64, "IV": base64(16), "hmac": hex(32)} in a BSO with id and modified.
            return (ciphertext + 2) / 3 * 4 + 24 + 64 + 120
        }
        let whole = try sealedSize(tabs.count)
        var kept = tabs.count
        if whole > cap {
            var low = 0, high = tabs.count
            while low < high {
                let middle = (low + high + 1) / 2
                if try sealedSize(middle) <= cap { low = middle } else { high = middle - 1 }
            }
            kept = low
        }
        return (whole, tabs.count, kept)
    }
}
