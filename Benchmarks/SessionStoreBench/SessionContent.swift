import Foundation

/// The pages every subject's session holds: the same URLs and titles, so that
/// the store, the raw SQLite baseline and the full-rewrite baseline carry equal data.
enum SessionContent {
    /// Entries in every tab's history when the session is seeded.
    static let historyLength = 20

    static func url(tab: Int, entry: Int) -> String {
        "https://www.example.org/articles/\(tab * 7919 % 100_000)/\(entry)-a-readable-slug?ref=session"
    }

    static func title(tab: Int, entry: Int) -> String {
        "Article \(entry) of section \(tab) \u{2013} Example News"
    }

    /// The page committed by the benchmark's `iteration`-th navigation.
    static func navigationURL(iteration: Int) -> String {
        "https://www.example.org/navigation/\(iteration)-another-readable-slug?ref=bench"
    }

    static func navigationTitle(iteration: Int) -> String {
        "Navigation \(iteration) \u{2013} Example News"
    }
}
