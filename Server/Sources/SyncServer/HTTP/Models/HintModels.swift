/// Answer of `GET /v1/hints`.
struct HintResponse: Codable, Sendable {
    /// The account's counter: above the client's cursor, there are changes.
    var counter: Int64
    /// How many unexpired commands wait for the caller.
    var commands: Int64
}
