import Foundation
import NIOCore
import PostgresNIO

/// One command to store, already validated.
struct CommandWrite: Sendable {
    var commandID: String
    var target: String
    var expiresAt: Date
    var sealed: [UInt8]
}

/// A pending command as `GET /v1/commands` returns it.
struct PendingCommand: Sendable {
    var commandID: String
    var sender: String
    var seq: Int64
    var createdAt: Date
    var expiresAt: Date
    var sealed: [UInt8]
}

/// Queries on `commands`.
extension Transaction {
    /// Unexpired, unacknowledged commands waiting for each of `targets`.
    func pendingCommandCounts(accountID: String, targets: [String]) async throws -> [String: Int] {
        let rows = try await query("""
            SELECT target_device_id, count(*) FROM commands
            WHERE account_id = \(accountID) AND target_device_id = ANY(\(targets))
              AND acked_at IS NULL AND expires_at > now()
            GROUP BY target_device_id
            """)
        var counts: [String: Int] = [:]
        for try await (target, count) in rows.decode((String, Int64).self) { counts[target] = Int(count) }
        return counts
    }

    /// Stores a command unless its id is known for that target; `true` when stored.
    func insertCommand(accountID: String, sender: String, seq: Int64, command: CommandWrite) async throws -> Bool {
        let rows = try await query("""
            INSERT INTO commands (account_id, target_device_id, command_id, sender_device_id, seq, sealed, size, expires_at)
            VALUES (\(accountID), \(command.target), \(command.commandID), \(sender), \(seq),
                    \(ByteBuffer(bytes: command.sealed)), \(Int32(command.sealed.count)), \(command.expiresAt))
            ON CONFLICT (account_id, target_device_id, command_id) DO NOTHING
            RETURNING 1
            """)
        for try await _ in rows.decode(Int32.self) { return true }
        return false
    }

    /// Whether a command with this id is known for the target (pending, acknowledged or expired).
    func commandExists(accountID: String, target: String, commandID: String) async throws -> Bool {
        let rows = try await query("""
            SELECT 1 FROM commands
            WHERE account_id = \(accountID) AND target_device_id = \(target) AND command_id = \(commandID)
            """)
        for try await _ in rows.decode(Int32.self) { return true }
        return false
    }

    /// Up to `limit` of the device's unexpired, unacknowledged commands, oldest first.
    func pendingCommands(accountID: String, target: String, limit: Int) async throws -> [PendingCommand] {
        let rows = try await query("""
            SELECT command_id, sender_device_id, seq, created_at, expires_at, sealed FROM commands
            WHERE account_id = \(accountID) AND target_device_id = \(target)
              AND acked_at IS NULL AND expires_at > now()
            ORDER BY seq
            LIMIT \(Int64(limit))
            """)
        var commands: [PendingCommand] = []
        for try await row in rows.decode((String, String, Int64, Date, Date, ByteBuffer).self) {
            commands.append(PendingCommand(
                commandID: row.0, sender: row.1, seq: row.2, createdAt: row.3, expiresAt: row.4,
                sealed: Array(buffer: row.5)))
        }
        return commands
    }

    /// Acknowledges the target's commands: their sealed bytes go, their ids stay
    /// until they expire so that a replay is not delivered again.
    func acknowledgeCommands(accountID: String, target: String, ids: [String]) async throws -> Int {
        let rows = try await query("""
            UPDATE commands SET sealed = NULL, size = 0, acked_at = now()
            WHERE account_id = \(accountID) AND target_device_id = \(target)
              AND command_id = ANY(\(ids)) AND acked_at IS NULL
            RETURNING 1
            """)
        var count = 0
        for try await _ in rows.decode(Int32.self) { count += 1 }
        return count
    }
}
