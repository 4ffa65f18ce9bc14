import ArgumentParser

/// `sessionstore-sync-server migrate`: applies pending schema migrations.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Apply pending schema migrations and exit.")

    @OptionGroup var database: DatabaseOption

    func run() async throws {
        let logger = SyncServerCommand.makeLogger()
        try await SyncServerApp.migrate(try database.url(), logger: logger)
    }
}
