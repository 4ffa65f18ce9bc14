import ArgumentParser
import Foundation
import SessionStorage

/// The options every subcommand shares: which file, and how long to wait for it.
struct StoreOptions: ParsableArguments {
    /// The name of the file used when neither --db nor $SESSIONSTORE_DB is given.
    static let defaultFileName = "sessionstore.sqlite"

    @Option(name: .long, help: ArgumentHelp(
        "The session store file (default: $SESSIONSTORE_DB, else ./\(StoreOptions.defaultFileName)).",
        valueName: "path"))
    var db: String?

    // `.unconditional`: "-1" is this option's value (refused by validate()), not an unknown flag.
    @Option(name: .customLong("busy-timeout"), parsing: .unconditional, help: ArgumentHelp(
        "Seconds to wait for another process's lock.", valueName: "seconds"))
    var busyTimeout: Double = 5

    func validate() throws {
        if let db, db.isEmpty { throw ValidationError("--db needs a path.") }
        guard busyTimeout >= 0, busyTimeout <= 86_400, busyTimeout.isFinite else {
            throw ValidationError("--busy-timeout must be a number of seconds from 0 to 86400.")
        }
    }

    /// The file's path, resolved from --db, $SESSIONSTORE_DB, or the default name.
    var path: String {
        if let db { return db }
        if let fromEnvironment = ProcessInfo.processInfo.environment["SESSIONSTORE_DB"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return Self.defaultFileName
    }

    /// Opens the store for reading only; never creates or changes the file.
    /// Close it when done (it then removes the `-wal` and `-shm` that reading made), or use ``reading(_:)``.
    func openReadOnly() throws -> SessionDatabase {
        try SessionDatabase.openReadOnly(atPath: path, configuration: configuration)
    }

    /// Runs `body` on the store opened for reading only, then ``finishReading(_:)``:
    /// the file and the files beside it are left as they were.
    func reading<T>(_ body: (SessionDatabase) throws -> T) throws -> T {
        let database = try openReadOnly()
        defer { finishReading(database) }
        return try body(database)
    }

    /// Notes on stderr what the read repaired in memory (see ``RepairNotes``), then closes the store.
    func finishReading(_ database: SessionDatabase) {
        var notes = RepairNotes(path: path)
        notes.report(database)
        try? database.close()
    }

    /// Opens the store for writing. An existing file is checked read-only first
    /// (current schema, undamaged), so a refused store is left byte for byte as
    /// it was; only `migrate` and, with `migrating`, the browser's host (an app
    /// of the store, as the browser's own writer) migrate. A missing file is
    /// created only if `create`.
    func openForWriting(create: Bool, migrating: Bool = false) throws -> SessionDatabase {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        // A missing or empty (0-byte) file is a new store for commands that create one.
        if !create || (size ?? 0) > 0 {
            // Every page is checked before a write: nothing is written into a damaged file.
            do {
                try SessionDatabase.openReadOnly(atPath: path, configuration: configuration, checkingPages: true).close()
            } catch StorageError.migrationsPending where migrating {
                // The pages are sound (checked first); the open below migrates, as an app's does.
            }
        }
        var configuration = configuration
        configuration.createIfMissing = create
        return try SessionDatabase.open(atPath: path, configuration: configuration)
    }

    /// The storage configuration these options describe.
    var configuration: SessionDatabase.Configuration {
        var configuration = SessionDatabase.Configuration()
        configuration.busyTimeout = busyTimeout
        return configuration
    }
}
