import Foundation
import Hummingbird

extension SyncAPI {
    /// `POST /v1/commands`: queues sealed commands for other devices of the
    /// account. A command id already known for its target is not stored again
    /// (a retry, or a replay of an acknowledged command); the server never
    /// learns what a command does.
    func postCommands(_ request: Request, context: some RequestContext) async throws -> Response {
        let caller = try await authenticate(request)
        let body = try await JSONBody.decode(CommandsUploadRequest.self, from: request)
        let writes = try validate(body)
        try await takeUploadAllowance(caller)
        let outcome = try await database.transaction("commands", injectFaults: true) { tx in
            try await store(writes, from: caller, in: tx)
        }
        if outcome.value.stored > 0 {
            await notifier.notify(accountID: caller.accountID)
            ServerMetrics.commandsStored.increment(by: outcome.value.stored)
        }
        return JSONResponse.make(body: outcome.value)
    }

    private func validate(_ body: CommandsUploadRequest) throws -> [CommandWrite] {
        guard body.commands.count <= limits.maxBatchRecords else {
            throw APIError.tooLarge("more than \(limits.maxBatchRecords) commands")
        }
        let now = Date()
        var total = 0
        return try body.commands.map { command in
            guard AccountIdentity.isLowercaseUUID(command.id) else {
                throw APIError.badRequest("command id must be a lowercase UUID")
            }
            guard AccountIdentity.isLowercaseUUID(command.target) else {
                throw APIError.badRequest("target must be a lowercase UUID")
            }
            guard let sealed = Self.base64(command.sealed), !sealed.isEmpty else {
                throw APIError.badRequest("sealed must be non-empty base64")
            }
            guard sealed.count <= limits.maxRecordBytes else {
                throw APIError.tooLarge("command \(command.id) is over \(limits.maxRecordBytes) bytes")
            }
            total += sealed.count
            guard total <= limits.maxBatchBytes else { throw APIError.tooLarge("batch is over \(limits.maxBatchBytes) bytes") }
            let latest = now.addingTimeInterval(TimeInterval(limits.maxCommandLifetimeSeconds))
            guard command.expiresAt > Self.seconds(now), command.expiresAt <= 253_402_300_799 else {
                throw APIError.badRequest("expires_at must be in the future")
            }
            let expires = min(latest, Date(timeIntervalSince1970: TimeInterval(command.expiresAt)))
            return CommandWrite(commandID: command.id, target: command.target, expiresAt: expires, sealed: sealed)
        }
    }

    private func store(_ writes: [CommandWrite], from caller: AuthenticatedDevice, in tx: Transaction)
        async throws -> CommandsUploadResponse
    {
        let account = caller.accountID
        guard let usage = try await tx.lockUsage(accountID: account) else {
            throw APIError.unauthorized("unknown account")
        }
        let targets = Array(Set(writes.map(\.target)))
        for target in targets {
            guard let device = try await tx.device(accountID: account, deviceID: target), device.revokedAt == nil else {
                throw APIError.notFound("no device \(target) in this account")
            }
        }
        var pending = try await tx.pendingCommandCounts(accountID: account, targets: targets)
        var seq = usage.counter
        var response = CommandsUploadResponse(stored: 0, duplicates: 0)
        for write in writes {
            if pending[write.target, default: 0] >= limits.maxPendingCommands {
                // A command already known (a retry whose answer was lost, a replay) is a
                // duplicate even when its target's queue is full: only a new one is refused.
                guard try await tx.commandExists(accountID: account, target: write.target, commandID: write.commandID)
                else {
                    throw APIError.tooManyRequests(
                        "commands_full", retryAfter: 60,
                        "device \(write.target) has \(limits.maxPendingCommands) commands waiting")
                }
                response.duplicates += 1
                continue
            }
            if try await tx.insertCommand(accountID: account, sender: caller.deviceID, seq: seq + 1, command: write) {
                seq += 1
                pending[write.target, default: 0] += 1
                response.stored += 1
            } else {
                response.duplicates += 1
            }
        }
        if seq != usage.counter {
            try await tx.setCounter(accountID: account, to: seq)
            try await announce(accountID: account, in: tx)
        }
        try await tx.touchDevice(accountID: account, deviceID: caller.deviceID)
        return response
    }

    /// `GET /v1/commands?limit=L`: the caller's pending commands, oldest first.
    func pendingCommands(_ request: Request, context: some RequestContext) async throws -> Response {
        let caller = try await authenticate(request)
        let limit = min(
            try Self.integer(request.uri.queryParameters["limit"], name: "limit", default: 1000, min: 1),
            Int64(limits.maxPendingCommands))
        let commands = try await database.transaction("pending commands") { tx in
            try await tx.pendingCommands(accountID: caller.accountID, target: caller.deviceID, limit: Int(limit))
        }.value
        return JSONResponse.make(body: PendingCommandsResponse(commands: commands.map {
            PendingCommandsResponse.Command(
                id: $0.commandID, sender: $0.sender, seq: $0.seq, createdAt: Self.seconds($0.createdAt),
                expiresAt: Self.seconds($0.expiresAt), sealed: Data($0.sealed).base64EncodedString())
        }))
    }

    /// `POST /v1/commands/ack`: the caller applied these commands; they are not
    /// delivered again.
    func acknowledgeCommands(_ request: Request, context: some RequestContext) async throws -> Response {
        let caller = try await authenticate(request)
        let body = try await JSONBody.decode(CommandsAckRequest.self, from: request)
        guard body.ids.count <= limits.maxPendingCommands else {
            throw APIError.tooLarge("more than \(limits.maxPendingCommands) ids")
        }
        guard body.ids.allSatisfy(AccountIdentity.isLowercaseUUID) else {
            throw APIError.badRequest("command ids must be lowercase UUIDs")
        }
        let count = try await database.transaction("ack commands", injectFaults: true) { tx in
            try await tx.acknowledgeCommands(accountID: caller.accountID, target: caller.deviceID, ids: body.ids)
        }.value
        ServerMetrics.commandsAcknowledged.increment(by: count)
        return JSONResponse.make(body: CommandsAckResponse(acknowledged: count))
    }
}
