import CrashVFS
import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport

/// The scripted workload, run on files the crash VFS tracks.
///
/// Each step that returns is acknowledged: its state (the store's
/// ``SessionDigest``) is recorded, and the VFS's mark is set to its number, so
/// every image written at a later sync point must hold that state or a later one.
struct PowerLossWorkload {
    var directory: String
    var seed: UInt64
    var synchronous: SessionDatabase.Configuration.Synchronous
    var steps: Int

    /// What the workload acknowledged, in order.
    struct Acknowledged: Codable {
        var what: String
        /// The store's digest lines then; `nil` when no store exists yet.
        var digest: [String]?
        /// Seconds since the VFS was registered.
        var at: Double
    }

    /// What the check needs besides the images.
    struct Record: Codable {
        var synchronous: String
        var states: [Acknowledged]
        /// The digest of `recover`'s output, read after it finished.
        var recovered: [String]?
        var syncPoints: Int64
    }

    var storePath: String { directory + "/store.sqlite" }
    var recoveredPath: String { directory + "/recovered.sqlite" }

    /// An export document with a third browser of three tabs, each with a history of two pages.
    static let importDocument: Data = {
        func tab(_ number: Int) -> String {
            let entries = (1...2).map { page in
                #"{"post":false,"referrer_policy":"default","timestamp":"2026-01-01T00:00:00.000Z","title":"Imported \#(number).\#(page)","transition":"link","url":"https://imported.example/\#(number)/\#(page)","user_agent":"automatic"}"#
            }
            return #"{"created_at":"2026-01-01T00:00:00.000Z","history":{"current_index":1,"entries":[\#(entries.joined(separator: ","))]},"id":"00000000-0000-4000-8000-00000000010\#(number)","last_active_at":"2026-01-01T00:00:00.000Z","pinned":false}"#
        }
        return Data((#"{"browsers":[{"active_tab":"00000000-0000-4000-8000-000000000101","created_at":"2026-01-01T00:00:00.000Z","groups":[],"id":"00000000-0000-4000-8000-00000000000c","last_active_at":"2026-01-01T00:00:00.000Z","tabs":["#
            + (1...3).map(tab).joined(separator: ",") + #"]}],"closed_entries":[],"format":"sessionstore","version":1}"#).utf8)
    }()

    func run() throws -> Record {
        var states: [Acknowledged] = []
        func acknowledge(_ what: String, _ database: SessionDatabase?) throws {
            states.append(Acknowledged(what: what, digest: try database.map { try SessionDigest($0).lines }, at: crash_vfs_elapsed()))
            crash_vfs_set_mark(Int64(states.count - 1))
        }
        try acknowledge("nothing", nil)

        var configuration = CrashWorkload.configuration
        configuration.synchronous = synchronous
        let workload = CrashWorkload(seed: seed)
        let database: SessionDatabase
        if seed % 2 == 1 {
            // Odd seeds: a store made by a binary that knows the first migration only,
            // then opened by this one, which backs it up and runs the five others.
            var older = configuration
            older.knownMigrationCount = 1
            let first = try SessionDatabase.open(atPath: storePath, configuration: older)
            try acknowledge("create at the first migration", first)
            try workload.setUp(first)
            try acknowledge("import two browsers", first)
            try first.close()
            database = try SessionDatabase.open(atPath: storePath, configuration: configuration)
            try acknowledge("migrate to the newest schema", database)
        } else {
            // Even seeds: creating the store runs every migration.
            database = try SessionDatabase.open(atPath: storePath, configuration: configuration)
            try acknowledge("create", database)
            try workload.setUp(database)
            try acknowledge("import two browsers", database)
        }

        var step = 0
        func mutate(count: Int) throws {
            for _ in 0..<count {
                step += 1
                let outcome = try workload.apply(step: step, to: database)
                try acknowledge("step \(step): \(outcome)", database)
            }
        }
        try mutate(count: steps / 2)
        try database.importArchive(try SessionArchive.decode(from: Self.importDocument))
        try acknowledge("import a third browser", database)
        guard let snapshot = try database.takeSnapshot() else { throw Failure("no snapshot was taken") }
        try acknowledge("snapshot \(snapshot.name)", database)
        try mutate(count: steps / 4)
        // The newest: a step that cleared browsing data replaced the snapshots taken before it.
        guard let newest = try database.snapshots().first else { throw Failure("no snapshot is listed") }
        try database.restoreSnapshot(named: newest.name)
        try acknowledge("restore-snapshot \(newest.name)", database)
        try database.compact()
        try acknowledge("compact (VACUUM, checkpoint)", database)
        try mutate(count: steps - steps / 2 - steps / 4)
        try database.close()
        states.append(Acknowledged(what: "close", digest: states.last?.digest, at: crash_vfs_elapsed()))
        crash_vfs_set_mark(Int64(states.count - 1))

        _ = try SessionStoreFile.recover(from: storePath, to: recoveredPath, configuration: configuration)
        states.append(Acknowledged(what: "recover", digest: states.last?.digest, at: crash_vfs_elapsed()))
        crash_vfs_set_mark(Int64(states.count - 1))
        let output = try SessionDatabase.openReadOnly(atPath: recoveredPath, configuration: configuration)
        let recovered = try SessionDigest(output).lines
        try output.close()
        return Record(
            synchronous: synchronous.rawValue, states: states, recovered: recovered,
            syncPoints: crash_vfs_sync_points())
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
