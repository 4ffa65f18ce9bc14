import Foundation
import Hummingbird

extension SyncAPI {
    /// `GET /v1/devices`: the account's devices that are not revoked; those
    /// silent for `hide_device_days` are marked `hidden`.
    func devices(_ request: Request, context: some RequestContext) async throws -> Response {
        let caller = try await authenticate(request)
        let rows = try await database.transaction("devices") { tx in
            try await tx.activeDevices(accountID: caller.accountID)
        }.value
        let hideBefore = Date().addingTimeInterval(-TimeInterval(limits.hideDeviceDays) * 86_400)
        let devices = rows.map {
            DevicesResponse.Device(
                deviceID: $0.deviceID, registeredAt: Self.seconds($0.registeredAt),
                lastSeenAt: Self.seconds($0.lastSeenAt), hidden: $0.lastSeenAt < hideBefore)
        }
        return JSONResponse.make(body: DevicesResponse(devices: devices))
    }
}
