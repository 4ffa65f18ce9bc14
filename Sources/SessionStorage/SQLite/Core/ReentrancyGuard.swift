import SessionModel

/// Detects a repository call made from inside a mutation of the same store.
///
/// Mutations run their closure on the database writer's thread; a task-local
/// flag bound there is visible to any call the closure makes synchronously.
enum ReentrancyGuard {
    @TaskLocal static var isMutating = false

    /// Runs `body` marked as a mutation.
    static func mutating<T>(_ body: () throws -> T) rethrows -> T {
        try $isMutating.withValue(true, operation: body)
    }

    /// Throws `WebStateListError.reentrantMutation` when called from inside a mutation.
    static func check() throws {
        if isMutating { throw WebStateListError.reentrantMutation }
    }
}
