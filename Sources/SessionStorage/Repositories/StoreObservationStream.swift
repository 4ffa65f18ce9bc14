/// Turns a repository observation into an `AsyncThrowingStream`.
///
/// The stream keeps the newest value only (a slow consumer skips to the
/// latest), finishes normally when what it shows is gone (a closed browser, a
/// tab that no longer exists) and throws any other failure. Ending the
/// iteration cancels the observation.
enum StoreObservationStream {
    static func make<Value: Sendable>(
        _ observe: (@escaping @Sendable (Result<Value, any Error>) -> Void) -> any StoreObservation
    ) -> AsyncThrowingStream<Value, any Error> {
        AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let observation = observe { result in
                switch result {
                case .success(let value):
                    continuation.yield(value)
                case .failure(StorageError.unknownBrowser), .failure(StorageError.unknownTab):
                    continuation.finish()
                case .failure(let error):
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in observation.cancel() }
        }
    }
}
