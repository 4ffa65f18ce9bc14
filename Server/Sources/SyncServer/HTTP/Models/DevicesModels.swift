/// Answer of `GET /v1/devices`.
struct DevicesResponse: Encodable {
    var devices: [Device]

    /// One device (times in seconds since 1970).
    struct Device: Encodable {
        var deviceID: String
        var registeredAt: Int64
        var lastSeenAt: Int64
        /// Silent for longer than `hide_device_days`: a client lists it apart, or not at all.
        var hidden: Bool

        enum CodingKeys: String, CodingKey {
            case deviceID = "device_id", registeredAt = "registered_at", lastSeenAt = "last_seen_at", hidden
        }
    }
}
