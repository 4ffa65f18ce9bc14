import SessionModel

/// What the store's current write transaction leaves to do once it ends: the
/// caches put in what it wrote when it commits, and forget it when it rolls back.
///
/// The store runs these itself, from ``SessionDatabase``'s one transaction path,
/// rather than through GRDB's `afterNextTransaction`: adding a transaction
/// observer makes GRDB drop every cached statement that deletes, so each write
/// would prepare its deletes again.
final class TransactionActions: Sendable {
    private let pending = Protected<[(onCommit: @Sendable () -> Void, onRollback: (@Sendable () -> Void)?)]>([])

    /// Runs `onCommit` if the current transaction commits, `onRollback` if it rolls back.
    func add(onCommit: @escaping @Sendable () -> Void, onRollback: (@Sendable () -> Void)? = nil) {
        pending.withLock { $0.append((onCommit, onRollback)) }
    }

    /// Runs, in order, what the transaction that just ended left to do.
    func transactionEnded(committed: Bool) {
        let actions = pending.withLock { actions in
            defer { actions.removeAll() }
            return actions
        }
        for action in actions {
            if committed { action.onCommit() } else { action.onRollback?() }
        }
    }
}
