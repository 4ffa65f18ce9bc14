import Synchronization

/// The server's id (`server_meta.server_id`), read from the database once and
/// kept: it never changes while the database is the same.
final class ServerIdentity: Sendable {
    private let cached = Mutex<String?>(nil)

    init() {}

    /// The id, read on first use.
    func id(in database: Database) async throws -> String {
        if let id = cached.withLock({ $0 }) { return id }
        let read = try await database.transaction("server id") { tx in try await tx.serverID() }.value
        guard let read else { throw APIError(.internalServerError, "no_server_id", "the database has no server id; run migrate") }
        cached.withLock { $0 = read }
        return read
    }
}
