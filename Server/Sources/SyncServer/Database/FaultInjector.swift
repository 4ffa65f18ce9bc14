import PostgresNIO

/// Test hook: makes the next `remaining` upload transactions fail with a real
/// PostgreSQL serialization failure (SQLSTATE 40001) just before commit.
public actor FaultInjector {
    private var remaining: Int

    /// Creates an injector that fails the next `serializationFailures` attempts.
    public init(serializationFailures: Int = 0) {
        remaining = max(0, serializationFailures)
    }

    /// Whether this attempt should fail; counts it down.
    func consume() -> Bool {
        guard remaining > 0 else { return false }
        remaining -= 1
        return true
    }

    /// The statement that raises the injected failure inside PostgreSQL.
    static let failureStatement: PostgresQuery =
        "DO $$ BEGIN RAISE EXCEPTION 'injected serialization failure' USING ERRCODE = '40001'; END $$"
}


