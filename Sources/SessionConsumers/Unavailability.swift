/// Why a mediator stopped: what it showed is gone, or the store failed.
///
/// After telling its consumer, the mediator makes no further call.
public enum Unavailability: Hashable, Sendable, CustomStringConvertible {
    /// The browser or tab no longer exists in the store.
    case closed
    /// The store could not be read; the message is one plain sentence.
    case failed(message: String)

    public var description: String {
        switch self {
        case .closed: "closed"
        case .failed(let message): message
        }
    }
}
