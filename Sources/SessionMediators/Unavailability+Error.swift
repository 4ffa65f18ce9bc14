import SessionConsumers
import SessionStorage

extension Unavailability {
    /// Why an observation failed, as a consumer may be told: `.closed` for a
    /// browser or tab the store no longer has, else the error's one-sentence description.
    init(_ error: any Error) {
        switch error as? StorageError {
        case .unknownBrowser, .unknownTab: self = .closed
        default: self = .failed(message: String(describing: error))
        }
    }
}
