import Foundation
import SessionModel

/// Text that the store can keep.
enum ChromiumText {
    /// `title` without NUL characters, cut to the store's title limit on a
    /// character boundary.
    static func storableTitle(_ title: String) -> String {
        var text = title.contains("\0") ? title.replacingOccurrences(of: "\0", with: "") : title
        let limit = NavigationLimits.maximumTitleLength
        guard text.unicodeScalars.count > limit else { return text }
        var scalars = 0
        var end = text.startIndex
        for index in text.indices {
            let count = text[index].unicodeScalars.count
            guard scalars + count <= limit else { break }
            scalars += count
            end = text.index(after: index)
        }
        text = String(text[..<end])
        return text
    }
}
