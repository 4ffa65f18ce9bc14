import SyncServer
import Testing

@Suite("database URL")
struct DatabaseURLTests {
    @Test func tcpURL() throws {
        let url = try DatabaseURL("postgres://alice:s%40cret@db.example:6543/sync")
        #expect(url.endpoint == .tcp(host: "db.example", port: 6543))
        #expect(url.username == "alice")
        #expect(url.password == "s@cret")
        #expect(url.database == "sync")
    }

    @Test func unixSocketURL() throws {
        let url = try DatabaseURL("postgres://postgres@localhost:5433/sync?host=/tmp/pg")
        #expect(url.endpoint == .unixSocket(path: "/tmp/pg/.s.PGSQL.5433"))
        #expect(url.password == nil)
        #expect(try DatabaseURL("postgresql://u@/d?host=/run/postgresql").endpoint == .unixSocket(path: "/run/postgresql/.s.PGSQL.5432"))
    }

    @Test func rejectsOtherSchemesAndMissingUser() {
        #expect(throws: DatabaseURLError.self) { try DatabaseURL("mysql://u@h/d") }
        #expect(throws: DatabaseURLError.self) { try DatabaseURL("postgres://h/d") }
    }
}
