import PostgresNIO

/// The query behind `GET /v1/hints`.
extension Transaction {
    /// The account's counter and the device's pending command count, in one
    /// query; `nil` when the account is gone or the device revoked (a poll that
    /// began before a revocation hears nothing after it).
    func hint(accountID: String, deviceID: String) async throws -> HintResponse? {
        let rows = try await query("""
            SELECT counter,
                   (SELECT count(*) FROM commands
                    WHERE account_id = \(accountID) AND target_device_id = \(deviceID)
                      AND acked_at IS NULL AND expires_at > now())
            FROM accounts WHERE account_id = \(accountID)
              AND EXISTS (SELECT 1 FROM devices WHERE account_id = \(accountID) AND device_id = \(deviceID)
                          AND revoked_at IS NULL)
            """)
        for try await (counter, commands) in rows.decode((Int64, Int64).self) {
            return HintResponse(counter: counter, commands: commands)
        }
        return nil
    }
}
