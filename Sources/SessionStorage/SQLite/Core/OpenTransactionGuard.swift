internal import GRDB

/// Fails every commit on the writer connection but a mutation's own, while the mutation runs.
///
/// Mutations begin and commit through statements prepared once per connection (GRDB's
/// `inTransaction` compiles `BEGIN` and `COMMIT` anew each time), and so lose GRDB's guard
/// against an aborted transaction. SQLite rolls a transaction back by itself on some errors
/// (a full disk, say); a mutation that caught such an error and went on would then run each
/// later statement in a transaction of its own, committed at once: half a change kept. This
/// observer, registered on the writer, refuses those commits, so each such statement fails
/// and leaves nothing.
final class OpenTransactionGuard: TransactionObserver, @unchecked Sendable {
    /// From the mutation's `BEGIN` until just before its `COMMIT`. Read and written only on
    /// the writer's serial queue (in SQLite's commit hook, and around the mutation).
    var isGuarding = false
    /// Whether the writer connection has this observer.
    var isRegistered = false

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }

    func databaseDidChange(with event: DatabaseEvent) {}

    func databaseWillCommit() throws {
        if isGuarding { throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted") }
    }

    func databaseDidCommit(_ db: Database) {}

    func databaseDidRollback(_ db: Database) {}
}
