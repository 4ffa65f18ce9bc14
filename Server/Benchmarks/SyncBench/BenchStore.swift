import Foundation
import GRDB
import SessionStore

/// Realistic tabs, written straight into a migrated store in one transaction
/// (the store's own triggers fill its derived tables): URLs of 60–300 bytes with
/// a tail to 2 KB, titles of 20–120 characters, 3–12 navigations per tab.
struct PageGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    static let hosts = ["news.example.com", "docs.example.org", "shop.example.net", "video.example.com", "wiki.example.org",
                        "mail.example.com", "maps.example.net", "forum.example.org"]
    static let words = ["browser", "session", "recipe", "weather", "history", "travel", "garden", "market", "science",
                        "music", "design", "review", "guide", "sports", "health", "finance", "movies", "coffee"]

    /// A URL: 60–300 bytes, one in ten 300 bytes to 2 KB.
    mutating func url() -> String {
        let length = int(0...9) == 0 ? int(300...2048) : int(60...300)
        var url = "https://\(Self.hosts[int(0...Self.hosts.count - 1)])/"
        while url.utf8.count < length {
            url += Self.words[int(0...Self.words.count - 1)] + (int(0...3) == 0 ? "?id=\(next() % 100_000)&" : "/")
        }
        return String(url.prefix(length))
    }

    /// A title: 20–120 characters.
    mutating func title() -> String {
        let length = int(20...120)
        var title = ""
        while title.count < length { title += Self.words[int(0...Self.words.count - 1)].capitalized + " " }
        return String(title.prefix(length)).trimmingCharacters(in: .whitespaces)
    }
}

enum BenchStore {
    /// Creates a store at `path` with one window of `tabs` realistic tabs.
    static func make(atPath path: String, tabs: Int, seed: UInt64) throws {
        try SessionDatabase.open(atPath: path).close()
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        var pages = PageGenerator(seed: seed)
        let now = Date()
        func time(_ offset: Int) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
            return formatter.string(from: now.addingTimeInterval(Double(-offset)))
        }
        let stamp = time(0)
        try queue.inTransaction { db in
            let browser = UUID().uuidString.lowercased()
            try db.execute(
                sql: "INSERT INTO browsers (id, created_at, last_active_at, revision) VALUES (?, ?, ?, 1)",
                arguments: [browser, stamp, stamp])
            let tab = try db.makeStatement(sql: """
                INSERT INTO tabs (id, browser_id, sort_key, current_entry_index, history_start, created_at, last_active_at)
                VALUES (?, ?, ?, ?, 0, ?, ?)
                """)
            let entry = try db.makeStatement(sql: """
                INSERT INTO navigation_entries (tab_id, sequence, url, title, timestamp) VALUES (?, ?, ?, ?, ?)
                """)
            var first: String?
            for index in 0..<tabs {
                let id = UUID().uuidString.lowercased()
                first = first ?? id
                let count = pages.int(3...12)
                try tab.execute(arguments: [id, browser, Int64(index + 1) << 32, count - 1, stamp, stamp])
                for sequence in 0..<count {
                    try entry.execute(arguments: [id, sequence, pages.url(), pages.title(), stamp])
                }
            }
            try db.execute(sql: "UPDATE browsers SET active_tab_id = ? WHERE id = ?", arguments: [first, browser])
            return .commit
        }
    }
}
