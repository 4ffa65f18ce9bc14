import PostgresNIO

/// Queries on `idempotency`.
extension Transaction {
    /// The response stored for this key within the idempotency window, if any.
    func storedResponse(accountID: String, deviceID: String, key: String) async throws -> String? {
        let window = "\(Limits.idempotencyWindowSeconds) seconds"
        let rows = try await query("""
            SELECT response FROM idempotency
            WHERE account_id = \(accountID) AND device_id = \(deviceID) AND key = \(key)
              AND created_at > now() - \(window)::interval
            """)
        for try await response in rows.decode(String.self) { return response }
        return nil
    }

    /// Remembers the response to this key (replacing one past the window).
    func storeResponse(accountID: String, deviceID: String, key: String, response: String) async throws {
        try await query("""
            INSERT INTO idempotency (account_id, device_id, key, response)
            VALUES (\(accountID), \(deviceID), \(key), \(response))
            ON CONFLICT (account_id, device_id, key) DO UPDATE SET
                response = EXCLUDED.response, created_at = EXCLUDED.created_at
            """)
    }
}
