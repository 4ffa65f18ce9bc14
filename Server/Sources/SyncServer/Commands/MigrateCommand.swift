import ArgumentParser

/// `sessionstore-sync-server migrate`: applies pending schema migrations.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Apply pending schema migrations and exit.")

    @Option(name: .customLong("database-url"), help: "postgres://user[:password]@host[:port]/db[?host=/socket/dir]")
    var databaseURL: String

    func run() async throws {
        let logger = SyncServerCommand.makeLogger()
        try await SyncServerApp.migrate(try DatabaseURL(databaseURL), logger: logger)
    }
}
