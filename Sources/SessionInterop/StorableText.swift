import Foundation
import SessionModel

/// Text from a browser's file as the store can keep it.
enum StorableText {
    /// `title` without NUL characters (SQLite would cut the text there), cut to the
    /// store's title limit on a character boundary, as `NavigationItem.validated()` cuts it.
    static func title(_ title: String) -> String {
        NavigationItem.truncatedTitle(title.contains("\0") ? title.replacingOccurrences(of: "\0", with: "") : title)
    }
}
