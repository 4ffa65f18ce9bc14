import Foundation

/// Why a mediator stopped: what it showed is gone, or the store failed.
///
/// After telling its consumer, the mediator makes no further call. The
/// mediators' sequences throw it (as an `Error`) when the store fails.
public enum Unavailability: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The browser or tab no longer exists in the store.
    case closed
    /// The store could not be read; the message is one plain sentence.
    case failed(message: String)

    /// `closed`, or the failure's message.
    public var description: String {
        switch self {
        case .closed: "closed"
        case .failed(let message): message
        }
    }

    /// The same text as ``description``, for alerts and `localizedDescription`.
    public var errorDescription: String? { description }
}
