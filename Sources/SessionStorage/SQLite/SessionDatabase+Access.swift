import GRDB
import SessionModel

extension SessionDatabase {
    /// Reads in one transaction, refusing a call made from inside a mutation.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try ReentrancyGuard.check()
        do {
            return try writer.read(body)
        } catch let error as DatabaseError {
            throw StorageError(error, path: path ?? ":memory:", operation: "reading")
        }
    }

    /// Runs a mutation in one IMMEDIATE transaction (taking the write lock
    /// first, so another process's write is waited for, not raced), marked so
    /// that a re-entrant call throws `WebStateListError.reentrantMutation`.
    func mutate<T>(_ body: (Database) throws -> T) throws -> T {
        try ReentrancyGuard.check()
        do {
            return try writer.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try ReentrancyGuard.mutating { try body(db) }
                    return .commit
                }
                return result!
            }
        } catch let error as DatabaseError {
            throw StorageError(error, path: path ?? ":memory:", operation: "writing")
        }
    }
}
