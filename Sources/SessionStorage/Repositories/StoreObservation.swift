/// A running observation of the store; ``cancel()`` stops it.
///
/// Once `cancel()` returns, the observation's handler is not called again.
/// Releasing the last reference cancels it too.
public protocol StoreObservation: AnyObject, Sendable {
    /// Stops the observation. Calling it again does nothing.
    func cancel()
}

/// How an observation's values arrive.
///
/// Observed values are `Sendable` snapshots, delivered in commit order on a
/// private serial queue: the initial value first, then one value per committed
/// change that altered it (duplicates are dropped). Writes made by other
/// processes on the same file are noticed within
/// ``externalChangeLatency`` seconds.
public enum StoreObservationDelivery {
    /// The longest delay before a write by another process is noticed, in seconds.
    public static let externalChangeLatency: Double = 0.25
}
