/// Answer of `GET /health`.
struct HealthResponse: Codable {
    var status: String
}
