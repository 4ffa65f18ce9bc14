import ArgumentParser
import Foundation

/// The quotas `serve` and `sweep` take as options (defaults: ``Limits``).
struct LimitOptions: ParsableArguments {
    @Option(help: "Most devices per account.")
    var maxDevices = Limits().maxDevices
    @Option(help: "Most live records per account.")
    var maxAccountRecords = Limits().maxAccountRecords
    @Option(help: "Most sealed bytes of live records per account.")
    var maxAccountBytes = Limits().maxAccountBytes
    @Option(help: "Most account-wide saved-group records (groups and their tabs) per account.")
    var maxAccountSavedGroupRecords = Limits().maxAccountSavedGroupRecords
    @Option(help: "Largest sealed record or command, in bytes.")
    var maxRecordBytes = Limits().maxRecordBytes
    @Option(help: "Most commands waiting for one device.")
    var maxPendingCommands = Limits().maxPendingCommands
    @Option(help: "Uploads per second per device.")
    var uploadsPerSecond = Limits().uploadsPerSecond
    @Option(help: "Days a tombstone is kept (older cursors get 410).")
    var tombstoneDays = Limits().tombstoneDays
    @Option(help: "Days of silence after which a device is listed as hidden.")
    var hideDeviceDays = Limits().hideDeviceDays
    @Option(help: "Days of silence after which a device's records are deleted.")
    var sweepDeviceDays = Limits().sweepDeviceDays

    func validate() throws {
        let values = [maxDevices, maxAccountRecords, maxAccountBytes, maxAccountSavedGroupRecords, maxRecordBytes, maxPendingCommands,
                      uploadsPerSecond, tombstoneDays, hideDeviceDays, sweepDeviceDays]
        guard values.allSatisfy({ $0 >= 1 }) else { throw ValidationError("every limit must be at least 1") }
    }

    /// The limits with these values.
    var limits: Limits {
        var limits = Limits()
        limits.maxDevices = maxDevices
        limits.maxAccountRecords = maxAccountRecords
        limits.maxAccountBytes = maxAccountBytes
        limits.maxAccountSavedGroupRecords = maxAccountSavedGroupRecords
        limits.maxRecordBytes = maxRecordBytes
        limits.maxPendingCommands = maxPendingCommands
        limits.uploadsPerSecond = uploadsPerSecond
        limits.tombstoneDays = tombstoneDays
        limits.hideDeviceDays = hideDeviceDays
        limits.sweepDeviceDays = sweepDeviceDays
        return limits
    }
}

/// `--database-url`, or `$SESSIONSTORE_SYNC_DATABASE_URL`.
struct DatabaseOption: ParsableArguments {
    @Option(name: .customLong("database-url"),
            help: "postgres://user[:password]@host[:port]/db[?host=/socket/dir] (else $SESSIONSTORE_SYNC_DATABASE_URL)")
    var databaseURL: String?

    /// The parsed URL.
    func url() throws -> DatabaseURL {
        guard let text = databaseURL ?? ProcessInfo.processInfo.environment["SESSIONSTORE_SYNC_DATABASE_URL"] else {
            throw ValidationError("give --database-url or set SESSIONSTORE_SYNC_DATABASE_URL")
        }
        return try DatabaseURL(text)
    }
}
