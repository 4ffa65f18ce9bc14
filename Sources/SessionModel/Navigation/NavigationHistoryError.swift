import Foundation

/// Why a ``NavigationHistory`` mutation or a ``NavigationItem`` validation was refused.
///
/// A mutation that throws leaves the history unchanged. Descriptions never
/// contain a URL, a title or page state, only field names and numbers, so they
/// can be logged.
public enum NavigationHistoryError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// An index does not designate an entry of the history.
    case indexOutOfRange(index: Int, count: Int)
    /// There is no entry before the current one (or the history is empty).
    case cannotGoBack
    /// There is no entry after the current one (or the history is empty).
    case cannotGoForward
    /// An entry's URL is the empty string.
    case emptyURL
    /// A URL field (named as the ``NavigationItem`` property, such as `"referrerURL"`) is longer
    /// than ``NavigationLimits/maximumURLLength``; `length` is its length in Unicode scalars.
    case urlTooLong(field: String, length: Int)
    /// An HTTP status is outside `0...999`.
    case invalidHTTPStatus(Int)
    /// A maximum number of entries is less than 1.
    case invalidMaximumEntries(Int)
    /// A text field (named as the ``NavigationItem`` property) holds a NUL
    /// character, which SQLite would silently cut the text at.
    case containsNUL(field: String)

    /// One plain sentence that says what went wrong.
    public var description: String {
        switch self {
        case let .indexOutOfRange(index, count):
            return "Index \(index) is out of range for a history of \(count) entries."
        case let .containsNUL(field):
            return "The \(field) field contains a NUL character."
        case .cannotGoBack:
            return "There is no history entry before the current one."
        case .cannotGoForward:
            return "There is no history entry after the current one."
        case .emptyURL:
            return "A history entry cannot have an empty URL."
        case let .urlTooLong(field, length):
            return "The \(field) of a history entry is \(length) characters long, "
                + "more than the \(NavigationLimits.maximumURLLength) allowed."
        case let .invalidHTTPStatus(status):
            return "HTTP status \(status) is outside the range 0 to 999."
        case let .invalidMaximumEntries(maximum):
            return "A history must keep at least 1 entry, not \(maximum)."
        }
    }
}

extension NavigationHistoryError {
    /// The same one-sentence message as `description`, for alerts and `localizedDescription`.
    public var errorDescription: String? { description }
}
